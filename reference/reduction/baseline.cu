// Library baseline of the reduction lab for `gpulab bench` (cuda backend only):
// both parts through CUB's DeviceReduce::Sum, the fastest general-purpose
// reduction NVIDIA ships. The temporary storage CUB asks for is allocated once
// and kept, so the timed calls measure the reduction, not cudaMalloc.
#include <cub/device/device_reduce.cuh>

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

template <class T>
void sum(const T* in, T* out, int n) {
  size_t bytes = 0;
  cub::DeviceReduce::Sum(nullptr, bytes, in, out, n);
  cub::DeviceReduce::Sum(scratch(bytes), bytes, in, out, n);
}
}  // namespace

void reduce_sum_int(const int* in, int* out, int n) { sum(in, out, n); }
void reduce_sum_float(const float* in, float* out, int n) { sum(in, out, n); }
