// Reference solution of the vector_add example lab: one thread per element.
#include <cuda_runtime.h>

__global__ void add_kernel(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

void vector_add(const float* a, const float* b, float* c, int n) {
  const int block = 256;
  add_kernel<<<(n + block - 1) / block, block>>>(a, b, c, n);
}
