// Library algorithm (reduction): CUB's dispatch class called directly, below cub::DeviceReduce:
// its name never appears in the source, only the class that does the work.
#include <cub/device/dispatch/dispatch_reduce.cuh>

#include <cuda/std/functional>

template <class T>
void sum(const T* in, T* out, int n) {
  using Dispatch = cub::DispatchReduce<const T*, T*, int, cuda::std::plus<>, T>;
  size_t bytes = 0;
  Dispatch::Dispatch(nullptr, bytes, in, out, n, cuda::std::plus<>{}, T{}, nullptr);
  void* scratch = nullptr;
  cudaMalloc(&scratch, bytes);
  Dispatch::Dispatch(scratch, bytes, in, out, n, cuda::std::plus<>{}, T{}, nullptr);
  cudaFree(scratch);
}

void reduce_sum_int(const int* in, int* out, int n) { sum(in, out, n); }
void reduce_sum_float(const float* in, float* out, int n) { sum(in, out, n); }
