// Idiom (cuda only: the emulator has no CUB): a privatised histogram of the submission's own with
// CUB's block-level collectives (cub::BlockLoad, cub::BlockHistogram): not a library algorithm of
// the histogram lab, which names only device-wide histograms, sorts and counts.
#include <cub/block/block_histogram.cuh>
#include <cub/block/block_load.cuh>

namespace {
constexpr int kThreads = 256, kItems = 8, kTile = kThreads * kItems;

__global__ void byte_counts(const unsigned char* data, unsigned int* bins, size_t n) {
  using Load = cub::BlockLoad<unsigned char, kThreads, kItems, cub::BLOCK_LOAD_DIRECT>;
  using Histogram = cub::BlockHistogram<unsigned char, kThreads, kItems, 256>;
  __shared__ typename Load::TempStorage load_storage;
  __shared__ typename Histogram::TempStorage histogram_storage;
  __shared__ unsigned int block_bins[256];
  for (size_t base = blockIdx.x * static_cast<size_t>(kTile); base < n; base += gridDim.x * static_cast<size_t>(kTile)) {
    unsigned char items[kItems];
    const int valid = static_cast<int>(n - base < kTile ? n - base : kTile);
    Load(load_storage).Load(data + base, items, valid, 0);
    Histogram(histogram_storage).Histogram(items, block_bins);
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += kThreads) {
      // Bin 0 holds the padding of a partial tile.
      const unsigned int padding = b == 0 ? static_cast<unsigned int>(kTile - valid) : 0;
      atomicAdd(&bins[b], block_bins[b] - padding);
    }
    __syncthreads();
  }
}

__global__ void letter_counts(const char* text, unsigned int* bins, size_t n) {
  __shared__ unsigned int local[7];
  if (threadIdx.x < 7) local[threadIdx.x] = 0;
  __syncthreads();
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n; i += gridDim.x * static_cast<size_t>(blockDim.x)) {
    const char c = text[i];
    if (c >= 'a' && c <= 'z') atomicAdd(&local[(c - 'a') / 4], 1u);
  }
  __syncthreads();
  if (threadIdx.x < 7) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}
}  // namespace

void histogram_bytes(const unsigned char* data, unsigned int* bins, size_t n) { byte_counts<<<120, kThreads>>>(data, bins, n); }
void histogram_text(const char* text, unsigned int* bins, size_t n) { letter_counts<<<120, 256>>>(text, bins, n); }
