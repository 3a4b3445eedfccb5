// Prints what the CUDA runtime answers for page-locked and mapped host memory,
// as the samples on zero-copy and registered memory use it: device flags,
// cudaHostAlloc (mapped, portable, the typed overload), cudaHostRegister, the
// device pointer of host memory, and the errors of misuse. Run on a GPU, its
// output is recorded in expected/; the emulator must print the same lines.
#include <cstdio>
#include <cstdlib>
#include <cstring>

static void line(const char* what, cudaError_t e) {
  std::printf("%-40s %3d %s\n", what, static_cast<int>(e), cudaGetErrorName(e));
}

__global__ void add_one(float* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1.0f;
}

static int count_equal(const float* data, int n, float value) {
  int same = 0;
  for (int i = 0; i < n; ++i) same += data[i] == value;
  return same;
}

int main() {
  const int n = 1000;
  line("cudaSetDeviceFlags(cudaDeviceMapHost)", cudaSetDeviceFlags(cudaDeviceMapHost));
  unsigned int flags = 0;
  line("cudaGetDeviceFlags", cudaGetDeviceFlags(&flags));
  std::printf("%-40s %s\n", "map-host flag set", (flags & cudaDeviceMapHost) ? "yes" : "no");

  float* mapped = nullptr;
  line("cudaHostAlloc mapped", cudaHostAlloc(reinterpret_cast<void**>(&mapped), n * sizeof(float), cudaHostAllocMapped));
  for (int i = 0; i < n; ++i) mapped[i] = 1.0f;
  float* mapped_dev = nullptr;
  line("cudaHostGetDevicePointer", cudaHostGetDevicePointer(reinterpret_cast<void**>(&mapped_dev), mapped, 0));
  add_one<<<(n + 255) / 256, 256>>>(mapped_dev, n);
  line("kernel on mapped memory", cudaDeviceSynchronize());
  std::printf("%-40s %d of %d\n", "mapped elements now 2", count_equal(mapped, n, 2.0f), n);
  unsigned int alloc_flags = 0;
  line("cudaHostGetFlags", cudaHostGetFlags(&alloc_flags, mapped));
  std::printf("%-40s %s\n", "mapped flag reported", (alloc_flags & cudaHostAllocMapped) ? "yes" : "no");
  line("cudaFreeHost mapped", cudaFreeHost(mapped));

  float* portable = nullptr;
  line("cudaHostAlloc portable (typed)", cudaHostAlloc(&portable, n * sizeof(float), cudaHostAllocPortable));
  std::memset(portable, 0, n * sizeof(float));
  float* dev = nullptr;
  cudaMalloc(&dev, n * sizeof(float));
  cudaMemcpy(dev, portable, n * sizeof(float), cudaMemcpyHostToDevice);
  add_one<<<(n + 255) / 256, 256>>>(dev, n);
  cudaMemcpy(portable, dev, n * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("%-40s %d of %d\n", "portable elements now 1", count_equal(portable, n, 1.0f), n);
  line("cudaFreeHost portable", cudaFreeHost(portable));

  float* pinned = nullptr;
  line("cudaMallocHost", cudaMallocHost(&pinned, n * sizeof(float)));
  line("cudaFreeHost pinned", cudaFreeHost(pinned));

  // Memory from malloc, registered and mapped in place.
  const size_t bytes = 4096 * 4;
  float* plain = static_cast<float*>(std::aligned_alloc(4096, bytes));
  for (size_t i = 0; i < bytes / sizeof(float); ++i) plain[i] = 5.0f;
  line("cudaHostRegister mapped", cudaHostRegister(plain, bytes, cudaHostRegisterMapped));
  line("cudaHostRegister again", cudaHostRegister(plain, bytes, cudaHostRegisterMapped));
  line("cudaGetLastError after that", cudaGetLastError());
  float* plain_dev = nullptr;
  line("cudaHostGetDevicePointer registered", cudaHostGetDevicePointer(reinterpret_cast<void**>(&plain_dev), plain, 0));
  add_one<<<(bytes / sizeof(float) + 255) / 256, 256>>>(plain_dev, static_cast<int>(bytes / sizeof(float)));
  line("kernel on registered memory", cudaDeviceSynchronize());
  std::printf("%-40s %d of %d\n", "registered elements now 6", count_equal(plain, bytes / sizeof(float), 6.0f),
              static_cast<int>(bytes / sizeof(float)));
  line("cudaHostUnregister", cudaHostUnregister(plain));
  line("cudaHostUnregister again", cudaHostUnregister(plain));
  line("cudaGetLastError after that", cudaGetLastError());
  float on_stack = 0;
  void* nowhere = nullptr;
  line("cudaHostGetDevicePointer unregistered", cudaHostGetDevicePointer(&nowhere, &on_stack, 0));
  line("cudaGetLastError after that", cudaGetLastError());
  std::free(plain);
  cudaFree(dev);
  std::printf("done\n");
  return 0;
}
