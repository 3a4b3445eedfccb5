// Needs `-I include_define/include -D BLOCK=64 -D USE_DOUBLE`: params.h is in the -I folder, and
// both macros change what the program prints.
#include <cstdio>

#include <params.h>

__global__ void fill(real* out, int n) {
  const int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) out[i] = static_cast<real>(i) / 2;
}

int main() {
  const int n = 3 * BLOCK + 5;
  real* d = nullptr;
  cudaMalloc(&d, n * sizeof(real));
  fill<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d, n);
  real last = 0;
  cudaMemcpy(&last, d + n - 1, sizeof(real), cudaMemcpyDeviceToHost);
  cudaFree(d);
  std::printf("fill: BLOCK=%d, %s, sizeof=%zu, last=%.1f\n", BLOCK, REAL_NAME, sizeof(real), static_cast<double>(last));
  return 0;
}
