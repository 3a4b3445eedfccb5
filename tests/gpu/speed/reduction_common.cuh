// A fast warp-shuffle reduction shared by the speed tests' submissions: each
// thread adds a grid-stride share, warps reduce with shuffles, one atomicAdd
// per block.
#pragma once
constexpr int RBLOCK = 256;

template <typename T>
__global__ void shuffle_sum(const T* in, T* out, int n) {
  __shared__ T warp_sums[RBLOCK / 32];
  T v = 0;
  for (int i = blockIdx.x * RBLOCK + threadIdx.x; i < n; i += gridDim.x * RBLOCK) v += in[i];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < RBLOCK / 32 ? warp_sums[threadIdx.x] : T(0);
    for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    if (threadIdx.x == 0) atomicAdd(out, v);
  }
}

inline int sum_blocks(int n) {
  const int b = (n + RBLOCK - 1) / RBLOCK;
  return b < 2048 ? b : 2048;
}
