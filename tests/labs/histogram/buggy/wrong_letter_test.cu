// Buggy submission (one bug): the letter test checks c >= 'a' but forgets
// c <= 'z'. With a signed char, bytes >= 128 are negative and happen to be
// skipped, but '{' and '|' ((c - 'a') / 4 = 6) are counted in the y-z bin, and
// '}' and '~' in a bin 7 that does not exist (the shared array has a spare
// slot so that this stays the only bug). The byte histogram is correct.
#include <cuda_runtime.h>

#include <cstddef>

#define BLOCK_SIZE 256
#define MAX_BLOCKS 512

__global__ void text_kernel(const char* text, unsigned int* bins, size_t n) {
  __shared__ unsigned int bins_s[8];  // one spare so that the stray bin 7 stays in shared memory
  if (threadIdx.x < 8) bins_s[threadIdx.x] = 0;
  __syncthreads();

  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  const size_t stride = (size_t)blockDim.x * gridDim.x;
  while (i < n) {
    const char c = text[i];
    if (c >= 'a') atomicAdd(&bins_s[(c - 'a') / 4], 1u);  // BUG: also needs c <= 'z'
    i += stride;
  }
  __syncthreads();

  if (threadIdx.x < 7) atomicAdd(&bins[threadIdx.x], bins_s[threadIdx.x]);
}

__global__ void bytes_kernel(const unsigned char* data, unsigned int* bins, size_t n) {
  __shared__ unsigned int bins_s[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) bins_s[b] = 0;
  __syncthreads();

  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x)
    atomicAdd(&bins_s[data[i]], 1u);
  __syncthreads();

  for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&bins[b], bins_s[b]);
}

static unsigned int grid_for(size_t n) {
  size_t blocks = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
  return (unsigned int)(blocks > MAX_BLOCKS ? MAX_BLOCKS : blocks);
}

void histogram_text(const char* text, unsigned int* bins, size_t n) {
  text_kernel<<<grid_for(n), BLOCK_SIZE>>>(text, bins, n);
}

void histogram_bytes(const unsigned char* data, unsigned int* bins, size_t n) {
  bytes_kernel<<<grid_for(n), BLOCK_SIZE>>>(data, bins, n);
}
