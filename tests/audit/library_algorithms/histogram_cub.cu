// Library algorithm (histogram): CUB's device-wide histogram for the bytes
// (cub::DeviceHistogram::HistogramEven), and for the text a sort and a run-length encoding
// (cub::DeviceRadixSort, cub::DeviceRunLengthEncode), no counting kernel of the submission's own.
#include <cub/cub.cuh>

namespace {
__global__ void to_bin(const char* text, unsigned char* bin, size_t n) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) bin[i] = text[i] >= 'a' && text[i] <= 'z' ? static_cast<unsigned char>((text[i] - 'a') / 4) : 7;
}

__global__ void add_runs(const unsigned char* keys, const unsigned int* counts, const int* runs, unsigned int* bins) {
  for (int r = 0; r < *runs; ++r)
    if (keys[r] < 7) bins[keys[r]] += counts[r];
}
}  // namespace

void histogram_bytes(const unsigned char* data, unsigned int* bins, size_t n) {
  size_t bytes = 0;
  cub::DeviceHistogram::HistogramEven(nullptr, bytes, data, bins, 257, 0, 256, static_cast<long long>(n));
  void* scratch = nullptr;
  cudaMalloc(&scratch, bytes);
  cub::DeviceHistogram::HistogramEven(scratch, bytes, data, bins, 257, 0, 256, static_cast<long long>(n));
  cudaFree(scratch);
}

void histogram_text(const char* text, unsigned int* bins, size_t n) {
  unsigned char *keys = nullptr, *sorted = nullptr, *unique = nullptr;
  unsigned int* counts = nullptr;
  int* runs = nullptr;
  cudaMalloc(&keys, n);
  cudaMalloc(&sorted, n);
  cudaMalloc(&unique, 8);
  cudaMalloc(&counts, 8 * sizeof(unsigned int));
  cudaMalloc(&runs, sizeof(int));
  to_bin<<<static_cast<unsigned>((n + 255) / 256), 256>>>(text, keys, n);
  size_t sort_bytes = 0, rle_bytes = 0;
  cub::DeviceRadixSort::SortKeys(nullptr, sort_bytes, keys, sorted, static_cast<int>(n));
  cub::DeviceRunLengthEncode::Encode(nullptr, rle_bytes, sorted, unique, counts, runs, static_cast<int>(n));
  void* scratch = nullptr;
  cudaMalloc(&scratch, sort_bytes > rle_bytes ? sort_bytes : rle_bytes);
  cub::DeviceRadixSort::SortKeys(scratch, sort_bytes, keys, sorted, static_cast<int>(n));
  cub::DeviceRunLengthEncode::Encode(scratch, rle_bytes, sorted, unique, counts, runs, static_cast<int>(n));
  add_runs<<<1, 1>>>(unique, counts, runs, bins);
  cudaFree(scratch);
  cudaFree(keys);
  cudaFree(sorted);
  cudaFree(unique);
  cudaFree(counts);
  cudaFree(runs);
}
