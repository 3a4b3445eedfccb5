// Idiom: stream-ordered allocation (cudaMallocAsync, cudaFreeAsync) and a memory pool's
// attribute, a two-pass reduction through a temporary buffer.
#include <cuda_runtime.h>

__global__ void partial_sums(const int* in, int* partial, int n) {
  __shared__ int s[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

__global__ void final_sum(const int* partial, int* out, int blocks) {
  int total = 0;
  for (int b = 0; b < blocks; ++b) total += partial[b];
  *out = total;
}

void reduce_sum_int(const int* in, int* out, int n) {
  const int blocks = (n + 255) / 256;
  cudaMemPool_t pool;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  unsigned long long threshold = 1ull << 20;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
  int* partial = nullptr;
  cudaMallocAsync(reinterpret_cast<void**>(&partial), sizeof(int) * blocks, 0);
  partial_sums<<<blocks, 256>>>(in, partial, n);
  final_sum<<<1, 1>>>(partial, out, blocks);
  cudaFreeAsync(partial, 0);
}
