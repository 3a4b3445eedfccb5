// Test corpus: an independent histogram solution in its own style (written for this corpus, not
// derived from the course's kernels): each thread walks a contiguous chunk, counts runs of the same
// bin in a register and flushes a run with one shared atomic when the bin changes; per-warp private
// copies of the text bins; the block merges its copies at the end.
#include <cuda_runtime.h>
#include <cstddef>

namespace {
constexpr unsigned kBlock = 128;
constexpr unsigned kChunk = 64;  // bytes per thread, contiguous
constexpr unsigned kWarps = kBlock / 32;

__device__ __forceinline__ int letter_bin(unsigned char c) { return (c >= 'a' && c <= 'z') ? (c - 'a') >> 2 : -1; }
}  // namespace

__global__ void letters_by_chunk(const char* s, unsigned int* out, size_t len) {
  __shared__ unsigned int copies[kWarps][7];
  unsigned* mine = copies[threadIdx.x / 32];
  if (threadIdx.x % 32 < 7) mine[threadIdx.x % 32] = 0u;
  __syncthreads();
  const size_t from = (static_cast<size_t>(blockIdx.x) * kBlock + threadIdx.x) * kChunk;
  int run_bin = -1;
  unsigned run_len = 0;
  for (size_t p = from; p < from + kChunk && p < len; p++) {
    const int b = letter_bin(static_cast<unsigned char>(s[p]));
    if (b != run_bin) {
      if (run_bin >= 0) atomicAdd(&mine[run_bin], run_len);
      run_bin = b;
      run_len = 0;
    }
    run_len++;
  }
  if (run_bin >= 0) atomicAdd(&mine[run_bin], run_len);
  __syncthreads();
  if (threadIdx.x < 7) {
    unsigned total = 0;
    for (unsigned w = 0; w < kWarps; w++) total += copies[w][threadIdx.x];
    if (total) atomicAdd(out + threadIdx.x, total);
  }
}

__global__ void bytes_by_chunk(const unsigned char* d, unsigned int* out, size_t len) {
  __shared__ unsigned int local[256];
  for (unsigned b = threadIdx.x; b < 256; b += kBlock) local[b] = 0u;
  __syncthreads();
  const size_t from = (static_cast<size_t>(blockIdx.x) * kBlock + threadIdx.x) * kChunk;
  const size_t to = from + kChunk < len ? from + kChunk : len;
  unsigned prev = 256, count = 0;
  for (size_t p = from; p < to; p++) {
    if (d[p] != prev) {
      if (count) atomicAdd(local + prev, count);
      prev = d[p];
      count = 0;
    }
    ++count;
  }
  if (count) atomicAdd(local + prev, count);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < 256; b += kBlock)
    if (local[b]) atomicAdd(out + b, local[b]);
}

static unsigned blocks_for(size_t n) {
  const size_t per_block = static_cast<size_t>(kBlock) * kChunk;
  const size_t g = (n + per_block - 1) / per_block;
  return g ? static_cast<unsigned>(g) : 1u;
}

void histogram_text(const char* text, unsigned int* bins, size_t n) {
  letters_by_chunk<<<blocks_for(n), kBlock>>>(text, bins, n);
}

void histogram_bytes(const unsigned char* data, unsigned int* bins, size_t n) {
  bytes_by_chunk<<<blocks_for(n), kBlock>>>(data, bins, n);
}
