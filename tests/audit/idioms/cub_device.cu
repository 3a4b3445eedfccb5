// Idiom (cuda only: the emulator has no CUB): CUB in device code, a block reduce and a warp
// reduce.
#include <cub/cub.cuh>

template <int Block>
__global__ void block_sums(const int* in, int* out, int n) {
  using BlockReduce = cub::BlockReduce<int, Block>;
  using WarpReduce = cub::WarpReduce<int>;
  __shared__ typename BlockReduce::TempStorage block_storage;
  __shared__ typename WarpReduce::TempStorage warp_storage[Block / 32];
  const int i = blockIdx.x * Block + threadIdx.x;
  const int v = i < n ? in[i] : 0;
  const int warp_total = WarpReduce(warp_storage[threadIdx.x / 32]).Sum(v);
  const int block_total = BlockReduce(block_storage).Sum(v);
  if (threadIdx.x == 0) atomicAdd(out, block_total);
  if (threadIdx.x % 32 == 0 && warp_total < 0) out[1] = warp_total;
}

void reduce_sum_int(const int* in, int* out, int n) {
  cudaMemset(out, 0, sizeof(int));
  block_sums<256><<<(n + 255) / 256, 256>>>(in, out, n);
}
