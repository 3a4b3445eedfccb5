// Test corpus: a disguised copy of reference/histogram/progression/privatized_interleaved.cu (names
// changed, the kernels in the other order, for written as while and back, dead code added).
#include <cuda_runtime.h>
#include <cstddef>

const int kThreads = 256;
const int kGridCap = 512;

// One shared-memory histogram per block for the byte values.
__global__ void countBytes(const unsigned char* buf, unsigned int* hist, size_t len)
{
  __shared__ unsigned int local[256];
  for (int k = threadIdx.x; k < 256; k += blockDim.x) local[k] = 0;
  __syncthreads();
  for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < len; j += (size_t)blockDim.x * gridDim.x)
    atomicAdd(&local[buf[j]], 1u);
  __syncthreads();
  for (int k = threadIdx.x; k < 256; k += blockDim.x)
    if (local[k] != 0) atomicAdd(&hist[k], local[k]);
}

__device__ int unusedHelper(int v) { return v < 0 ? -v : v; }

// Letters a..z, four per bin.
__global__ void countLetters(const char* str, unsigned int* hist, size_t len)
{
  __shared__ unsigned int local[7];
  if (threadIdx.x < 7) local[threadIdx.x] = 0;
  __syncthreads();
  const size_t step = (size_t)blockDim.x * gridDim.x;
  size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  while (j < len) {
    const int letter = (unsigned char)str[j] - 'a';
    if (letter >= 0 && letter < 26) atomicAdd(&local[letter / 4], 1u);
    j += step;
  }
  __syncthreads();
  if (threadIdx.x < 7) atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}

static unsigned int numBlocks(size_t len)
{
  size_t b = (len + kThreads - 1) / kThreads;
  return (unsigned int)(b > kGridCap ? kGridCap : b);
}

void histogram_bytes(const unsigned char* data, unsigned int* bins, size_t n)
{
  countBytes<<<numBlocks(n), kThreads>>>(data, bins, n);
}

void histogram_text(const char* text, unsigned int* bins, size_t n)
{
  countLetters<<<numBlocks(n), kThreads>>>(text, bins, n);
}
