// Host code that sums its input straight from device memory: on a GPU a segmentation fault, and
// the emulator must say so (where, which allocation, what to do) instead of letting it work.
// `after_kernel` reads after a kernel and a synchronisation; `between_kernels` between two launches.
#include <cstdio>
#include <cstring>

__global__ void twice(float* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= 2.0f;
}

int main(int argc, char** argv) {
  const int n = 1000;
  float host[n];
  for (int i = 0; i < n; ++i) host[i] = 1.0f;
  float* d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, host, n * sizeof(float), cudaMemcpyHostToDevice);
  const char* when = argc > 1 ? argv[1] : "before";
  if (std::strcmp(when, "before") != 0) {
    twice<<<(n + 255) / 256, 256>>>(d, n);
    cudaDeviceSynchronize();
  }
  std::printf("summing on the host (%s)\n", when);
  std::fflush(stdout);
  float sum = 0;
  for (int i = 0; i < n; ++i) sum += d[i + 4];  // the host reads device memory
  if (std::strcmp(when, "between_kernels") == 0) twice<<<(n + 255) / 256, 256>>>(d, n);
  std::printf("sum %f\n", sum);
  return 0;
}
