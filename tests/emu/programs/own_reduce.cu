// A program with its own functions named `reduce` next to cooperative groups
// brought in with `using namespace cooperative_groups;`, as course code and the
// CUDA programming guide write them: a group sum through shared memory taking
// a thread_group, a shuffle sum template over a static tile, and a host check.
// It includes <cooperative_groups/reduce.h> too and calls cg::reduce: as with
// nvcc, the program's overloads and cg::reduce do not clash.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdio>
#include <vector>

using namespace cooperative_groups;
namespace cg = cooperative_groups;

// Sums val over g; temp holds one int per member of g.
__device__ int reduce(thread_group g, int* temp, int val) {
  const int lane = static_cast<int>(g.thread_rank());
  for (int i = static_cast<int>(g.size()) / 2; i > 0; i /= 2) {
    temp[lane] = val;
    g.sync();
    if (lane < i) val += temp[lane + i];
    g.sync();
  }
  return val;  // complete in the member of rank 0
}

template <unsigned Width>
__device__ int reduce(thread_block_tile<Width> tile, int val) {
  for (unsigned offset = Width / 2; offset > 0; offset /= 2) val += tile.shfl_down(val, offset);
  return val;
}

template <typename T>
T reduce(const std::vector<T>& data) {
  T sum = 0;
  for (const T& v : data) sum += v;
  return sum;
}

__global__ void sums(const int* in, int n, int* out) {
  __shared__ int temp[256];
  thread_block block = this_thread_block();
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  const int v = i < n ? in[i] : 0;
  thread_group warp_group = tiled_partition(block, 32);
  const int by_group = reduce(warp_group, temp + block.thread_rank() / 32 * 32, v);
  if (warp_group.thread_rank() == 0) atomicAdd(&out[0], by_group);
  thread_block_tile<32> tile = tiled_partition<32>(block);
  const int by_tile = reduce(tile, v);
  if (tile.thread_rank() == 0) atomicAdd(&out[1], by_tile);
  const int by_cg = cg::reduce(tile, v, cg::plus<int>());
  if (tile.thread_rank() == 0) atomicAdd(&out[2], by_cg);
}

int main() {
  const int n = 10000;
  std::vector<int> host(n);
  for (int i = 0; i < n; ++i) host[i] = i % 97 - 40;
  int *in = nullptr, *out = nullptr;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, 3 * sizeof(int));
  cudaMemcpy(in, host.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(out, 0, 3 * sizeof(int));
  sums<<<(n + 255) / 256, 256>>>(in, n, out);
  int got[3] = {0, 0, 0};
  cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
  std::printf("own reduce: group %d, tile %d, cg::reduce %d, host %d\n", got[0], got[1], got[2], reduce(host));
  cudaFree(in);
  cudaFree(out);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
