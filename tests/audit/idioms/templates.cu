// Idiom: templates: a kernel templated on its type and block size, a functor, a host template
// that picks the instantiation, constexpr helpers and a shuffle reduction in a device template.
#include <cuda_runtime.h>

#include <type_traits>

template <typename T>
struct Plus {
  __device__ T operator()(T a, T b) const { return a + b; }
};

template <typename T, typename Op>
__device__ T warp_reduce(T v, Op op) {
  for (int offset = 16; offset > 0; offset /= 2) v = op(v, __shfl_down_sync(0xffffffffu, v, offset));
  return v;
}

template <typename T, int Block>
__global__ void reduce(const T* in, T* out, int n) {
  static_assert(Block % 32 == 0, "whole warps");
  T v = T(0);
  for (int i = blockIdx.x * Block + threadIdx.x; i < n; i += gridDim.x * Block) v += in[i];
  v = warp_reduce(v, Plus<T>());
  if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}

constexpr int blocks_for(int n, int block) { return n / block + 1 < 1024 ? n / block + 1 : 1024; }

template <typename T>
void run(const T* in, T* out, int n) {
  cudaMemset(out, 0, sizeof(T));
  if constexpr (std::is_same_v<T, int>) {
    reduce<T, 256><<<blocks_for(n, 256), 256>>>(in, out, n);
  } else {
    reduce<T, 128><<<blocks_for(n, 128), 128>>>(in, out, n);
  }
}

void reduce_sum_int(const int* in, int* out, int n) { run(in, out, n); }
void reduce_sum_float(const float* in, float* out, int n) { run(in, out, n); }
