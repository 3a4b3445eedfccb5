// Idiom: printf debugging on the host and in a kernel, fprintf to stderr, puts, an error check
// that exits, and a helper header.
#include <cstdio>
#include <cstdlib>

#include "helper.cuh"

__global__ void sum_squares(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) printf("block %d thread %d: n = %d\n", blockIdx.x, threadIdx.x, n);
  if (i < n) atomicAdd(out, square(in[i]));
}

void reduce_sum_float(const float* in, float* out, int n) {
  std::puts("reduce_sum_float starts");
  cudaMemset(out, 0, sizeof(float));
  sum_squares<<<ceil_div(n, 256), 256>>>(in, out, n);
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) {
    std::fprintf(stderr, "launch failed: %s\n", cudaGetErrorString(e));
    std::exit(1);
  }
  check(cudaDeviceSynchronize(), "synchronize");
  std::printf("done with n = %d\n", n);
  std::fflush(stdout);
}
