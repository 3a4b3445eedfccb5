// Idiom: cooperative groups: the thread block, a 32-thread tile's shuffle-based reduce, and
// grid-stride loops.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__global__ void tile_sums(const float* in, float* out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum += in[i];
  sum = cg::reduce(tile, sum, cg::plus<float>());
  if (tile.thread_rank() == 0) atomicAdd(out, sum);
  block.sync();
}

void reduce_sum_float(const float* in, float* out, int n) {
  cudaMemset(out, 0, sizeof(float));
  tile_sums<<<64, 256>>>(in, out, n);
}
