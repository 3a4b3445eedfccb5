// Library baseline of the scan lab for `gpulab bench` (cuda backend only):
// CUB's DeviceScan (a single-pass scan with decoupled look-back), inclusive for
// floats and exclusive for ints. CUB's temporary storage is allocated once.
#include <cub/device/device_scan.cuh>

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
}  // namespace

void inclusive_scan(const float* in, float* out, int n) {
  size_t bytes = 0;
  cub::DeviceScan::InclusiveSum(nullptr, bytes, in, out, n);
  cub::DeviceScan::InclusiveSum(scratch(bytes), bytes, in, out, n);
}

void exclusive_scan(const int* in, int* out, int n) {
  size_t bytes = 0;
  cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, n);
  cub::DeviceScan::ExclusiveSum(scratch(bytes), bytes, in, out, n);
}
