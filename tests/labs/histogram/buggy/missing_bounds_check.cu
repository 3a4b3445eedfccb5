// Buggy submission (one bug): one byte per thread and no bounds check. The
// last block has threads past the end of the input (n is rarely a multiple
// of the block size), and they read bytes that are not part of it.
#include <cuda_runtime.h>

#include <cstddef>

#define BLOCK_SIZE 512

__global__ void text_kernel(const char* text, unsigned int* bins, size_t n) {
  __shared__ unsigned int bins_s[7];
  if (threadIdx.x < 7) bins_s[threadIdx.x] = 0;
  __syncthreads();

  const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  const int pos = (unsigned char)text[i] - 'a';  // BUG: no `if (i < n)`
  if (pos >= 0 && pos < 26) atomicAdd(&bins_s[pos / 4], 1u);
  __syncthreads();

  if (threadIdx.x < 7) atomicAdd(&bins[threadIdx.x], bins_s[threadIdx.x]);
}

__global__ void bytes_kernel(const unsigned char* data, unsigned int* bins, size_t n) {
  __shared__ unsigned int bins_s[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) bins_s[b] = 0;
  __syncthreads();

  const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  atomicAdd(&bins_s[data[i]], 1u);  // BUG: no `if (i < n)`
  __syncthreads();

  for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&bins[b], bins_s[b]);
}

void histogram_text(const char* text, unsigned int* bins, size_t n) {
  text_kernel<<<(unsigned int)((n + BLOCK_SIZE - 1) / BLOCK_SIZE), BLOCK_SIZE>>>(text, bins, n);
}

void histogram_bytes(const unsigned char* data, unsigned int* bins, size_t n) {
  bytes_kernel<<<(unsigned int)((n + BLOCK_SIZE - 1) / BLOCK_SIZE), BLOCK_SIZE>>>(data, bins, n);
}
