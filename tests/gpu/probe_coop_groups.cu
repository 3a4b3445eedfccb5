// Prints what cooperative groups give beyond a block and a fixed tile, as the
// samples and course exercises use them: a generic thread_group, a partition
// whose size is chosen at run time, the coalesced group of a branch, a binary
// partition, shuffles of a 16-byte value, cg::reduce next to the program's own
// function named reduce, and a grid-wide sync in a cooperative launch. Run on
// a GPU, its output is recorded in expected/; the emulator must print the same.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdio>

namespace cg = cooperative_groups;

// The program's own reduce, as the reduction samples name theirs.
__device__ int reduce(const int* values, int n) {
  int sum = 0;
  for (int i = 0; i < n; ++i) sum += values[i];
  return sum;
}

// Sum over any group through its shuffle-free interface: shared memory and sync.
__device__ int group_sum(cg::thread_group g, int* scratch, int value) {
  scratch[g.thread_rank()] = value;
  g.sync();
  int sum = 0;
  if (g.thread_rank() == 0) sum = reduce(scratch, static_cast<int>(g.size()));
  g.sync();
  return sum;
}

struct Wide {
  double a;
  int b;
  int c;
};

__global__ void groups(int* out, int tile_size) {
  __shared__ int scratch[128];
  cg::thread_block block = cg::this_thread_block();
  const int t = static_cast<int>(block.thread_rank());
  const int whole = group_sum(block, scratch, t);
  if (t == 0) out[0] = whole;

  cg::thread_group part = cg::tiled_partition(block, tile_size);
  const int part_sum = group_sum(part, scratch + (t / tile_size) * tile_size, t);
  if (part.thread_rank() == 0) out[1 + t / tile_size] = part_sum;  // out[1..8] for tiles of 16

  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  Wide w{t * 0.5, t, -t};
  w.a = warp.shfl_down(w, 1).a;  // a 16-byte value through a shuffle
  Wide from_lane_3 = warp.shfl(Wide{t * 0.25, t * 2, t * 3}, 3);
  if (t == 32) out[10] = static_cast<int>(w.a * 2) * 1000 + from_lane_3.b * 10 + from_lane_3.c;
  const int warp_total = cg::reduce(warp, t, cg::plus<int>());
  const int warp_max = cg::reduce(warp, t % 7, cg::greater<int>());
  if (t == 64) out[11] = warp_total * 100 + warp_max;

  if (t % 3 == 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    if (t == 63) out[12] = static_cast<int>(active.size()) * 100 + static_cast<int>(active.thread_rank());
    const int first = active.shfl(t, 0);
    if (t == 63) out[13] = first;
  }

  auto halves = cg::binary_partition(warp, t % 2 == 1);
  const int half_sum = cg::reduce(halves, t, cg::plus<int>());
  if (t == 1) out[14] = half_sum * 100 + static_cast<int>(halves.size());
  if (t == 2) out[15] = half_sum * 100 + static_cast<int>(halves.thread_rank());
}

__global__ void two_phase_sum(const int* in, int* partial, int* total, int n) {
  cg::grid_group grid = cg::this_grid();
  int sum = 0;
  for (int i = static_cast<int>(grid.thread_rank()); i < n; i += static_cast<int>(grid.size())) sum += in[i];
  atomicAdd(&partial[blockIdx.x], sum);
  grid.sync();
  if (grid.thread_rank() == 0) {
    int all = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) all += partial[b];
    *total = all;
  }
}

__global__ void report_grid(int* valid) { *valid = cg::this_grid().is_valid() ? 1 : 0; }

int main() {
  int* out = nullptr;
  cudaMallocManaged(&out, 16 * sizeof(int));
  for (int i = 0; i < 16; ++i) out[i] = -1;
  groups<<<1, 128>>>(out, 16);
  std::printf("groups: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  std::printf("block sum %d\n", out[0]);
  std::printf("tile sums");
  for (int i = 1; i <= 8; ++i) std::printf(" %d", out[i]);
  std::printf("\nwide shuffles %d\nwarp reduce %d\ncoalesced %d, lane-0 value %d\nbinary partition %d %d\n", out[10],
              out[11], out[12], out[13], out[14], out[15]);

  const int n = 1 << 16;
  int *in = nullptr, *partial = nullptr, *total = nullptr, *valid = nullptr;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&partial, 1024 * sizeof(int));
  cudaMallocManaged(&total, sizeof(int));
  cudaMallocManaged(&valid, sizeof(int));
  for (int i = 0; i < n; ++i) in[i] = i % 10;
  cudaMemset(partial, 0, 1024 * sizeof(int));
  int attr = 0;
  cudaDeviceGetAttribute(&attr, cudaDevAttrCooperativeLaunch, 0);
  std::printf("cooperative launch supported: %d\n", attr);
  int blocks = 8;
  int count = n;
  void* args[] = {&in, &partial, &total, &count};
  cudaError_t e = cudaLaunchCooperativeKernel(two_phase_sum, dim3(blocks), dim3(256), args);
  std::printf("cooperative launch of 8 blocks: %s\n", cudaGetErrorName(e));
  const cudaError_t synced = cudaDeviceSynchronize();  // before reading *total
  std::printf("then synchronize: %s, total %d\n", cudaGetErrorName(synced), *total);
  e = cudaLaunchCooperativeKernel(two_phase_sum, dim3(100000), dim3(1024), args);
  std::printf("cooperative launch of 100000 blocks: %s\n", cudaGetErrorName(e));
  std::printf("then cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  report_grid<<<1, 1>>>(valid);
  cudaDeviceSynchronize();
  std::printf("this_grid().is_valid() in a plain launch: %d\n", *valid);
  void* valid_args[] = {&valid};
  cudaLaunchCooperativeKernel(report_grid, dim3(1), dim3(1), valid_args);
  cudaDeviceSynchronize();
  std::printf("this_grid().is_valid() in a cooperative launch: %d\n", *valid);
  return 0;
}
