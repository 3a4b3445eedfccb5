// Conformance: grid-wide synchronisation. A kernel launched with
// cudaLaunchCooperativeKernel sums its input in two phases per round, each
// block's partial sum, grid.sync(), then every block adds all partials, over
// three rounds (three grid.sync() pairs); the grid_group queries
// (num_blocks, block_rank, thread_rank, size, is_valid) against the built-in
// indices; is_valid() is true in an ordinary launch too, as an H200 with
// CUDA 13 reports (tests/gpu/expected/probe_coop_groups.txt); a grid larger than an
// H100 holds at once is refused with cudaErrorCooperativeLaunchTooLarge; and
// the device reports cudaDevAttrCooperativeLaunch = 1.
// Plain CUDA: it also builds with nvcc (with tests/catch_main.cpp) for a GPU.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cooperative_groups.h>
#include <vector>

namespace cg = cooperative_groups;

namespace {

constexpr int kThreads = 128;

// Round r: every block writes the sum of its slice of `in` (times r + 1) to
// partial[block], then after grid.sync() every block adds up all partials.
__global__ void grid_rounds(const int* in, int* partial, int* totals, int n, int rounds) {
  __shared__ int s[kThreads];
  cg::grid_group grid = cg::this_grid();
  const int t = threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    int mine = 0;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) mine += in[i] * (r + 1);
    s[t] = mine;
    __syncthreads();
    for (int stride = kThreads / 2; stride > 0; stride /= 2) {
      if (t < stride) s[t] += s[t + stride];
      __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = s[0];
    grid.sync();
    if (t == 0) {
      int total = 0;
      for (unsigned b = 0; b < gridDim.x; ++b) total += partial[b];
      totals[r * gridDim.x + blockIdx.x] = total;
    }
    grid.sync();  // nobody overwrites partial[] while another block still reads it
  }
}

// What each thread sees of the grid group: 6 values per thread.
__global__ void grid_queries(unsigned long long* out) {
  cg::grid_group grid = cg::this_grid();
  const unsigned long long rank = grid.thread_rank();
  unsigned long long* o = out + 6 * rank;
  o[0] = grid.is_valid() ? 1 : 0;
  o[1] = grid.num_blocks();
  o[2] = grid.block_rank();
  o[3] = grid.size();
  o[4] = rank;
  o[5] = (blockIdx.y * gridDim.x + blockIdx.x) * (blockDim.x * blockDim.y) + threadIdx.y * blockDim.x + threadIdx.x;
}

__global__ void grid_valid(int* out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = cg::this_grid().is_valid() ? 1 : 0;
}

__global__ void big_grid(int* out) {
  cg::this_grid().sync();
  if (out) out[0] = 1;
}

}  // namespace

TEST_CASE("grid.sync: a two-phase reduction across blocks, three rounds") {
  const int n = 10000, blocks = 8, rounds = 3;
  std::vector<int> h(n);
  long long sum = 0;
  for (int i = 0; i < n; ++i) sum += h[i] = i % 17 - 5;
  int *in, *partial, *totals;
  REQUIRE(cudaMalloc(&in, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&partial, blocks * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&totals, rounds * blocks * sizeof(int)) == cudaSuccess);
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  int n_arg = n, rounds_arg = rounds;
  void* args[] = {&in, &partial, &totals, &n_arg, &rounds_arg};
  REQUIRE(cudaLaunchCooperativeKernel(grid_rounds, dim3(blocks), dim3(kThreads), args, 0, 0) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<int> got(rounds * blocks);
  cudaMemcpy(got.data(), totals, got.size() * sizeof(int), cudaMemcpyDeviceToHost);
  for (int r = 0; r < rounds; ++r) {
    for (int b = 0; b < blocks; ++b) {
      INFO("round " << r << ", block " << b);
      CHECK(got[r * blocks + b] == sum * (r + 1));
    }
  }
  cudaFree(in);
  cudaFree(partial);
  cudaFree(totals);
}

TEST_CASE("grid_group: num_blocks, block_rank, thread_rank, size and is_valid in a cooperative launch") {
  const dim3 grid(3, 2), block(16, 4);
  const int threads = 3 * 2 * 16 * 4;
  unsigned long long* out;
  REQUIRE(cudaMalloc(&out, 6 * threads * sizeof(unsigned long long)) == cudaSuccess);
  void* args[] = {&out};
  REQUIRE(cudaLaunchCooperativeKernel(grid_queries, grid, block, args) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<unsigned long long> h(6 * threads);
  cudaMemcpy(h.data(), out, h.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
  for (int r = 0; r < threads; ++r) {
    INFO("thread rank " << r);
    CHECK(h[6 * r + 0] == 1);
    CHECK(h[6 * r + 1] == 6);
    CHECK(h[6 * r + 2] == static_cast<unsigned long long>(r / 64));
    CHECK(h[6 * r + 3] == static_cast<unsigned long long>(threads));
    CHECK(h[6 * r + 4] == static_cast<unsigned long long>(r));
    CHECK(h[6 * r + 5] == static_cast<unsigned long long>(r));
  }
  cudaFree(out);
}

TEST_CASE("grid_group: is_valid() is true in an ordinary launch and in a cooperative one") {
  int* out;
  REQUIRE(cudaMalloc(&out, 64 * sizeof(int)) == cudaSuccess);
  grid_valid<<<2, 32>>>(out);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<int> h(64);
  cudaMemcpy(h.data(), out, h.size() * sizeof(int), cudaMemcpyDeviceToHost);
  for (int v : h) CHECK(v == 1);
  std::fill(h.begin(), h.end(), 0);
  cudaMemcpy(out, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice);
  void* args[] = {&out};
  REQUIRE(cudaLaunchCooperativeKernel(grid_valid, dim3(2), dim3(32), args) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(h.data(), out, h.size() * sizeof(int), cudaMemcpyDeviceToHost);
  for (int v : h) CHECK(v == 1);
  cudaFree(out);
}

TEST_CASE("cudaLaunchCooperativeKernel refuses a grid larger than the device holds at once") {
  // 1024-thread blocks: at most 2 per SM (2048 threads), and an H100 has 132 SMs.
  int* out = nullptr;
  void* args[] = {&out};
  CHECK(cudaLaunchCooperativeKernel(big_grid, dim3(265), dim3(1024), args) == cudaErrorCooperativeLaunchTooLarge);
  CHECK(cudaGetLastError() == cudaErrorCooperativeLaunchTooLarge);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);  // not a sticky error: nothing ran
}

TEST_CASE("the device supports cooperative launches") {
  int value = 0;
  REQUIRE(cudaDeviceGetAttribute(&value, cudaDevAttrCooperativeLaunch, 0) == cudaSuccess);
  CHECK(value == 1);
  cudaDeviceProp prop;
  REQUIRE(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
  CHECK(prop.cooperativeLaunch == 1);
}
