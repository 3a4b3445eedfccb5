// What host code and kernels may share, as on a GPU: managed memory read on the host after a
// synchronisation, a __managed__ variable, mapped and registered host memory written by a kernel,
// a __device__ variable's address from cudaGetSymbolAddress passed to a kernel, device variables
// read by name, copies of every
// kind CUDA accepts, and printf after copying back. Prints "all shared memory worked" at the end.
#include <cstdio>
#include <cstdlib>

__global__ void fill(int* out, int n, int value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value + i;
}

__device__ int on_device[32];
__constant__ int offsets[2] = {1, 2};
__managed__ int counter = 5;

// Device variables read by name in a kernel: device memory (the checking build must not object).
__global__ void read_by_name(int* out) { *out = on_device[0] + offsets[1]; }

__global__ void bump_managed() { counter += 1; }

int check(const char* what, const int* got, int n, int value) {
  for (int i = 0; i < n; ++i) {
    if (got[i] != value + i) {
      std::printf("%s: element %d is %d, not %d\n", what, i, got[i], value + i);
      return 1;
    }
  }
  return 0;
}

int main() {
  const int n = 32;
  int wrong = 0;
  int* managed = nullptr;
  cudaMallocManaged(&managed, n * sizeof(int));
  fill<<<1, n>>>(managed, n, 100);
  cudaDeviceSynchronize();
  wrong += check("managed", managed, n, 100);

  bump_managed<<<1, 1>>>();
  cudaDeviceSynchronize();
  if (counter != 6) std::printf("__managed__ counter is %d, not 6\n", counter), ++wrong;

  int* mapped = nullptr;
  cudaHostAlloc(&mapped, n * sizeof(int), cudaHostAllocMapped);
  int* mapped_device = nullptr;
  cudaHostGetDevicePointer(&mapped_device, mapped, 0);
  fill<<<1, n>>>(mapped_device, n, 200);
  cudaDeviceSynchronize();
  wrong += check("mapped", mapped, n, 200);

  int* registered = static_cast<int*>(std::malloc(n * sizeof(int)));
  cudaHostRegister(registered, n * sizeof(int), cudaHostRegisterMapped);
  fill<<<1, n>>>(registered, n, 300);
  cudaDeviceSynchronize();
  wrong += check("registered", registered, n, 300);
  cudaHostUnregister(registered);

  void* symbol = nullptr;
  cudaGetSymbolAddress(&symbol, on_device);
  fill<<<1, n>>>(static_cast<int*>(symbol), n, 400);
  int from_symbol[n];
  cudaMemcpyFromSymbol(from_symbol, on_device, sizeof from_symbol);
  wrong += check("__device__ variable", from_symbol, n, 400);
  int* by_name = nullptr;
  cudaMalloc(&by_name, sizeof(int));
  read_by_name<<<1, 1>>>(by_name);
  int read_back = 0;
  cudaMemcpy(&read_back, by_name, sizeof read_back, cudaMemcpyDeviceToHost);
  if (read_back != 402) std::printf("device variables read by name: %d, not 402\n", read_back), ++wrong;
  cudaFree(by_name);

  int* d = nullptr;
  int* d2 = nullptr;
  cudaMalloc(&d, n * sizeof(int));
  cudaMalloc(&d2, n * sizeof(int));
  fill<<<1, n>>>(d, n, 500);
  int back[n];
  cudaMemcpy(d2, d, n * sizeof(int), cudaMemcpyDeviceToDevice);
  cudaMemcpy(back, d2, n * sizeof(int), cudaMemcpyDeviceToHost);
  wrong += check("device to host", back, n, 500);
  cudaMemcpy(back, d, n * sizeof(int), cudaMemcpyDefault);
  wrong += check("default", back, n, 500);
  cudaMemcpy(back, d, n * sizeof(int), cudaMemcpyHostToHost);  // the pointers decide, as in CUDA
  wrong += check("host to host (device source)", back, n, 500);
  std::printf("first element after copying back: %d\n", back[0]);

  std::printf("%s (%d wrong)\n", wrong == 0 ? "all shared memory worked" : "FAILED", wrong);
  std::free(registered);
  cudaFree(d);
  cudaFree(d2);
  cudaFree(managed);
  cudaFreeHost(mapped);
  return wrong;
}
