// Test corpus: an independent reduction in its own style (written for this corpus, not derived from
// the course's kernels): a fixed grid of 120 blocks, each thread sums a strided slice with four
// independent accumulators, a butterfly (__shfl_xor_sync) inside each warp, the warp totals combined
// by warp 0 the same way, and one atomicAdd per block.
#include <cuda_runtime.h>

template <typename Num>
struct Acc4 {
  Num a = 0, b = 0, c = 0, d = 0;
  __device__ Num total() const { return (a + b) + (c + d); }
};

template <typename Num>
__device__ Num butterfly(Num x) {
#pragma unroll
  for (int mask = 16; mask >= 1; mask >>= 1) x += __shfl_xor_sync(0xffffffffu, x, mask);
  return x;
}

template <typename Num>
__global__ void __launch_bounds__(256) sum_slices(const Num* __restrict__ v, Num* result, int count) {
  Acc4<Num> acc;
  const int stride = gridDim.x * blockDim.x;
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  for (; k + 3 * stride < count; k += 4 * stride) {
    acc.a += v[k];
    acc.b += v[k + stride];
    acc.c += v[k + 2 * stride];
    acc.d += v[k + 3 * stride];
  }
  for (; k < count; k += stride) acc.a += v[k];
  Num mine = butterfly(acc.total());
  __shared__ Num per_warp[8];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) per_warp[warp] = mine;
  __syncthreads();
  if (warp == 0) {
    mine = lane < 8 ? per_warp[lane] : Num(0);
    mine = butterfly(mine);
    if (lane == 0) atomicAdd(result, mine);
  }
}

void reduce_sum_int(const int* in, int* out, int n) { sum_slices<int><<<120, 256>>>(in, out, n); }
void reduce_sum_float(const float* in, float* out, int n) { sum_slices<float><<<120, 256>>>(in, out, n); }
