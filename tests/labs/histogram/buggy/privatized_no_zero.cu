// Buggy submission (one bug): the privatized histogram never zeroes its shared
// bins. Shared memory is not initialised: the counts start from whatever was
// there (the emulator fills it with 0xFF bytes, so the bins are far off).
#include <cuda_runtime.h>

#include <cstddef>

#define BLOCK_SIZE 256
#define MAX_BLOCKS 512

__global__ void text_kernel(const char* text, unsigned int* bins, size_t n) {
  __shared__ unsigned int bins_s[7];
  // BUG: missing `if (threadIdx.x < 7) bins_s[threadIdx.x] = 0;`
  __syncthreads();

  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  const size_t stride = (size_t)blockDim.x * gridDim.x;
  while (i < n) {
    const int pos = (unsigned char)text[i] - 'a';
    if (pos >= 0 && pos < 26) atomicAdd(&bins_s[pos / 4], 1u);
    i += stride;
  }
  __syncthreads();

  if (threadIdx.x < 7) atomicAdd(&bins[threadIdx.x], bins_s[threadIdx.x]);
}

__global__ void bytes_kernel(const unsigned char* data, unsigned int* bins, size_t n) {
  __shared__ unsigned int bins_s[256];
  // BUG: missing the loop that zeroes bins_s
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
