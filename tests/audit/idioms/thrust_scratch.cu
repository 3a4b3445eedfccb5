// Idiom (cuda only: the emulator has neither Thrust nor CUB): the reduction of the submission's
// own, through library helpers that compute nothing of the answer themselves: a
// thrust::device_vector for scratch space (filled with thrust::fill), and cub::DeviceFor running
// the submission's own functor (an atomicAdd of each element), which the lab allows.
#include <cub/device/device_for.cuh>
#include <thrust/device_vector.h>
#include <thrust/fill.h>

namespace {
template <class T>
struct add_into {
  T* total;
  __device__ void operator()(T x) const { atomicAdd(total, x); }
};

template <class T>
void sum(const T* in, T* out, int n) {
  thrust::device_vector<T> partial(1);
  thrust::fill(partial.begin(), partial.end(), T{});
  cub::DeviceFor::ForEachN(in, n, add_into<T>{thrust::raw_pointer_cast(partial.data())});
  cudaMemcpy(out, thrust::raw_pointer_cast(partial.data()), sizeof(T), cudaMemcpyDeviceToDevice);
}
}  // namespace

void reduce_sum_int(const int* in, int* out, int n) { sum(in, out, n); }
void reduce_sum_float(const float* in, float* out, int n) { sum(in, out, n); }
