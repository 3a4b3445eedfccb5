// Library baseline of the histogram lab for `gpulab bench` (cuda backend only),
// through CUB's DeviceHistogram::HistogramEven:
//   bytes: 256 bins of width 1 over [0, 256);
//   text:  26 bins of width 1 over ['a', 'z' + 1) -- CUB's fastest form, one bin
//          per letter, every other byte (char is signed, so bytes >= 128 are
//          negative) outside the range and ignored -- then one small kernel adds
//          each group of four letters into the lab's 7 bins.
// CUB's temporary storage and the 26 letter counts are allocated once.
#include <cub/device/device_histogram.cuh>

namespace {
void* scratch(size_t bytes) {
  static void* buffer = nullptr;
  static size_t capacity = 0;
  if (bytes > capacity) {
    cudaFree(buffer);
    cudaMalloc(&buffer, bytes);
    capacity = bytes;
  }
  return buffer;
}

__global__ void letters_to_bins(const unsigned int* letters, unsigned int* bins) {
  const int b = threadIdx.x;  // 7 threads
  unsigned int sum = 0;
  for (int l = 4 * b; l < 4 * b + 4 && l < 26; ++l) sum += letters[l];
  bins[b] += sum;
}
}  // namespace

void histogram_bytes(const unsigned char* data, unsigned int* bins, size_t n) {
  size_t bytes = 0;
  cub::DeviceHistogram::HistogramEven(nullptr, bytes, data, bins, 257, 0, 256, static_cast<long long>(n));
  cub::DeviceHistogram::HistogramEven(scratch(bytes), bytes, data, bins, 257, 0, 256, static_cast<long long>(n));
}

void histogram_text(const char* text, unsigned int* bins, size_t n) {
  static unsigned int* letters = nullptr;
  if (!letters) cudaMalloc(&letters, 26 * sizeof(unsigned int));
  size_t bytes = 0;
  cub::DeviceHistogram::HistogramEven(nullptr, bytes, text, letters, 27, int{'a'}, int{'z'} + 1,
                                      static_cast<long long>(n));
  cub::DeviceHistogram::HistogramEven(scratch(bytes), bytes, text, letters, 27, int{'a'}, int{'z'} + 1,
                                      static_cast<long long>(n));
  letters_to_bins<<<1, 7>>>(letters, bins);
}
