// Course progression step, timed by `gpulab bench histogram --variants` (it must score
// full marks): privatized histogram with SECTIONED
// partitioning -- each thread counts one contiguous section of the input.
// Uncoalesced (neighbouring threads read bytes a section apart) and therefore
// slower on a GPU, but correct. Blocks of 128 threads; the last sections are
// short or empty when n is not a multiple of the number of threads.
#include <cuda_runtime.h>

#include <cstddef>

#define BLOCK_SIZE 128
#define SECTION 64  // bytes per thread, at least

__global__ void text_kernel(const char* text, unsigned int* bins, size_t n, size_t section) {
  __shared__ unsigned int bins_s[7];
  if (threadIdx.x < 7) bins_s[threadIdx.x] = 0;
  __syncthreads();

  const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  const size_t begin = t * section;
  const size_t end = begin + section < n ? begin + section : n;
  for (size_t i = begin; i < end; ++i) {
    const unsigned char c = (unsigned char)text[i];
    if (c >= 'a' && c <= 'z') atomicAdd(&bins_s[(c - 'a') / 4], 1u);
  }
  __syncthreads();

  if (threadIdx.x < 7) atomicAdd(&bins[threadIdx.x], bins_s[threadIdx.x]);
}

__global__ void bytes_kernel(const unsigned char* data, unsigned int* bins, size_t n, size_t section) {
  __shared__ unsigned int bins_s[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) bins_s[b] = 0;
  __syncthreads();

  const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  const size_t begin = t * section;
  const size_t end = begin + section < n ? begin + section : n;
  for (size_t i = begin; i < end; ++i) atomicAdd(&bins_s[data[i]], 1u);
  __syncthreads();

  for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&bins[b], bins_s[b]);
}

// At most 1024 blocks: larger inputs get longer sections.
static void plan(size_t n, unsigned int* blocks, size_t* section) {
  size_t threads = (n + SECTION - 1) / SECTION;
  size_t b = (threads + BLOCK_SIZE - 1) / BLOCK_SIZE;
  if (b > 1024) b = 1024;
  if (b < 1) b = 1;
  *blocks = (unsigned int)b;
  *section = (n + b * BLOCK_SIZE - 1) / (b * BLOCK_SIZE);
  if (*section < 1) *section = 1;
}

void histogram_text(const char* text, unsigned int* bins, size_t n) {
  unsigned int blocks; size_t section;
  plan(n, &blocks, &section);
  text_kernel<<<blocks, BLOCK_SIZE>>>(text, bins, n, section);
}

void histogram_bytes(const unsigned char* data, unsigned int* bins, size_t n) {
  unsigned int blocks; size_t section;
  plan(n, &blocks, &section);
  bytes_kernel<<<blocks, BLOCK_SIZE>>>(data, bins, n, section);
}
