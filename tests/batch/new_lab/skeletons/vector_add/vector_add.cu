// vector_add example lab -- your starting point: compiles, runs, and fails
// every test until the kernel stores a[i] + b[i] in c[i].
#include <cuda_runtime.h>

__global__ void add_kernel(const float* a, const float* b, float* c, int n) {
  // TODO: compute this thread's index i and, if i < n, set c[i] = a[i] + b[i].
}

void vector_add(const float* a, const float* b, float* c, int n) {
  const int block = 256;
  add_kernel<<<(n + block - 1) / block, block>>>(a, b, c, n);
}
