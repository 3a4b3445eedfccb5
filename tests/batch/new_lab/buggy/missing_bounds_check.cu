// A vector_add with no bounds test: the last, partial block writes past c.
#include <cuda_runtime.h>

__global__ void add_kernel(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] + b[i];
}

void vector_add(const float* a, const float* b, float* c, int n) {
  const int block = 256;
  add_kernel<<<(n + block - 1) / block, block>>>(a, b, c, n);
}
