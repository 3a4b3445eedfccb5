// Kernels whose blocks run as regions between barriers (grader/rewriter/region_rewrite.hpp: each
// stretch between barriers one loop over the block's threads), one per way the region form keeps a
// value: uniform variables assigned between barriers (a Kogge-Stone scan's buffer index), values
// recomputed from the thread's indices, per-thread variables and arrays kept in slots, a lambda
// capturing by reference, __syncthreads_count/_and/_or in their three forms, a parameter changed
// per thread, early returns by whole blocks and by threads after the last barrier, 2-D and 3-D
// blocks, a device function that reads threadIdx, cooperative groups' thread block, and a fault
// named at its thread. CTest runs this
// file twice, as every emulator test with a barrier: as built (regions) and with
// GPULAB_EMU_REGIONS=0 (one fiber per thread); the results must be the same, and each way must be
// the one taken.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include <cooperative_groups.h>

#include "gpulab/emu/diagnostics_api.hpp"
#include "region_test_helpers.cuh"

namespace cg = cooperative_groups;

namespace {

using region_test::DeviceArray;
using region_test::launched_as_asked;

constexpr int kBlock = 128;

// A uniform loop whose bound is blockDim; t and i are recomputed in each region.
__global__ void tree_sum(const int* in, int* out, int n) {
  __shared__ int partial[kBlock];
  const unsigned t = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + t;
  partial[t] = i < static_cast<unsigned>(n) ? in[i] : 0;
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    if (t < stride) partial[t] += partial[t + stride];
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}

// The buffer index src is the same in every thread, assigned between barriers; acc is each
// thread's own and lives across them.
__global__ void scan_with_total(const int* in, int* out, int* totals) {
  __shared__ int buffer[2][kBlock];
  const int t = threadIdx.x;
  int src = 0;
  int acc = in[blockIdx.x * kBlock + t];
  buffer[src][t] = acc;
  for (int stride = 1; stride < kBlock; stride *= 2) {
    __syncthreads();
    const int dst = 1 - src;
    buffer[dst][t] = t >= stride ? buffer[src][t] + buffer[src][t - stride] : buffer[src][t];
    acc += 1;
    src = dst;
  }
  out[blockIdx.x * kBlock + t] = buffer[src][t];
  totals[blockIdx.x * kBlock + t] = acc;
}

// A 2-D block (16 x 8) keeps an array of four values per thread across two barriers.
__global__ void rotate_tiles(const float* in, float* out) {
  __shared__ float tile[8][16];
  const int x = threadIdx.x, y = threadIdx.y;
  float keep[4];
  for (int k = 0; k < 4; ++k) keep[k] = in[(blockIdx.x * 8 + y) * 16 + x] * (k + 1);
  tile[y][x] = keep[0];
  __syncthreads();
  const float other = tile[7 - y][15 - x];
  __syncthreads();
  tile[y][x] = other + keep[3];
  __syncthreads();
  out[(blockIdx.x * 8 + y) * 16 + x] = tile[y][x] - keep[1];
}

// A 3-D block: threadIdx.z in a region, the block's threads in rank order.
__global__ void ranks_3d(int* out) {
  __shared__ int rank_of[64];
  const int r = threadIdx.x + 4 * (threadIdx.y + 4 * threadIdx.z);
  rank_of[r] = r * 10 + static_cast<int>(threadIdx.z);
  __syncthreads();
  out[blockIdx.x * 64 + r] = rank_of[63 - r] + static_cast<int>(blockIdx.x);
}

// __syncthreads_count, _and and _or as a declaration, an assignment and a statement.
__global__ void votes(const int* in, int* out) {
  const int t = threadIdx.x;
  const int positives = __syncthreads_count(in[t] > 0);
  int all_small = 0;
  all_small = __syncthreads_and(in[t] < 100);
  __syncthreads_or(in[t] == 5);
  const int any_negative = __syncthreads_or(in[t] < 0);
  out[t] = positives * 100 + all_small * 10 + any_negative;
}

// A whole block returns (blockIdx), then threads return after the last barrier.
__global__ void early_exits(int* out, int live_blocks) {
  __shared__ int s[kBlock];
  if (blockIdx.x >= live_blocks) return;
  s[threadIdx.x] = threadIdx.x * 3;
  __syncthreads();
  if (threadIdx.x % 3 == 1) return;
  out[blockIdx.x * kBlock + threadIdx.x] = s[kBlock - 1 - threadIdx.x];
}

// A lambda capturing by reference is used on both sides of a barrier; the tile is dynamic shared memory.
__global__ void lambda_loads(const int* in, int* out, int n) {
  extern __shared__ int tile[];
  const int tid = threadIdx.x;
  auto load = [&](int from) { tile[tid] = from + tid < n ? in[from + tid] : -1; };
  load(blockIdx.x * blockDim.x);
  __syncthreads();
  const int mine = tile[(tid + 1) % blockDim.x];
  __syncthreads();
  load(blockIdx.x * blockDim.x + 1);
  __syncthreads();
  out[blockIdx.x * blockDim.x + tid] = mine * 1000 + tile[tid];
}

__device__ int thread_code() { return threadIdx.x * 7 + threadIdx.y; }

// A function that reads threadIdx through the runtime, and a parameter each thread changes.
__global__ void helper_and_parameter(int* out, int base) {
  __shared__ int codes[64];
  base += threadIdx.x;
  codes[threadIdx.y * 8 + threadIdx.x] = thread_code();
  __syncthreads();
  base *= 2;
  __syncthreads();
  out[threadIdx.y * 8 + threadIdx.x] = codes[63 - (threadIdx.y * 8 + threadIdx.x)] + base;
}

// Cooperative groups' thread block: its sync is a barrier in each of its spellings.
__global__ void block_group_rounds(const int* in, int* out) {
  cg::thread_block cta = cg::this_thread_block();
  auto block = cg::this_thread_block();
  __shared__ int s[64];
  const unsigned r = cta.thread_rank();
  s[r] = in[blockIdx.x * 64 + r];
  cg::sync(cta);
  const int left = s[(r + 63) % 64];
  block.sync();
  s[r] += left;
  cg::this_thread_block().sync();
  out[blockIdx.x * 64 + r] = s[(r + 1) % 64] * static_cast<int>(block.size());
}

// A fault after a barrier, in thread 37 of block 1.
__global__ void fault_after_barrier(int* out, int* bad) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  int* target = blockIdx.x == 1 && threadIdx.x == 37 ? bad : out;
  target[threadIdx.x] = s[63 - threadIdx.x];
}

}  // namespace

TEST_CASE("regions: a tree reduction and a scan with uniform and per-thread variables") {
  const int n = 1000, blocks = (n + kBlock - 1) / kBlock;
  std::vector<int> in(blocks * kBlock);
  for (int i = 0; i < n; ++i) in[i] = i % 17 - 5;
  DeviceArray<int> d_in(in), sums(blocks), scanned(in.size()), totals(in.size());
  launched_as_asked([&] { tree_sum<<<blocks, kBlock>>>(d_in.p, sums.p, n); });
  launched_as_asked([&] { scan_with_total<<<blocks, kBlock>>>(d_in.p, scanned.p, totals.p); });
  const std::vector<int> s = sums.host(), sc = scanned.host(), tot = totals.host();
  for (int b = 0; b < blocks; ++b) {
    int sum = 0;
    for (int t = 0; t < kBlock && b * kBlock + t < n; ++t) sum += in[b * kBlock + t];
    CHECK(s[b] == sum);
    int prefix = 0;
    for (int t = 0; t < kBlock; ++t) {
      prefix += in[b * kBlock + t];
      CHECK(sc[b * kBlock + t] == prefix);
      CHECK(tot[b * kBlock + t] == in[b * kBlock + t] + 7);
    }
  }
}

TEST_CASE("regions: 2-D and 3-D blocks, arrays kept per thread") {
  std::vector<float> in(3 * 128);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 23) - 4.0f;
  DeviceArray<float> d_in(in), out(in.size());
  launched_as_asked([&] { rotate_tiles<<<3, dim3(16, 8)>>>(d_in.p, out.p); });
  const std::vector<float> h = out.host();
  for (int b = 0; b < 3; ++b)
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 16; ++x) {
        const float v = in[(b * 8 + y) * 16 + x], w = in[(b * 8 + 7 - y) * 16 + 15 - x];
        CHECK(h[(b * 8 + y) * 16 + x] == w + v * 4 - v * 2);
      }
  DeviceArray<int> ranks(2 * 64);
  launched_as_asked([&] { ranks_3d<<<2, dim3(4, 4, 4)>>>(ranks.p); });
  const std::vector<int> r = ranks.host();
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 64; ++i) CHECK(r[b * 64 + i] == (63 - i) * 10 + (63 - i) / 16 + b);
}

TEST_CASE("regions: __syncthreads_count, _and and _or") {
  std::vector<int> in(96);
  for (int i = 0; i < 96; ++i) in[i] = i % 4 == 0 ? -i : i;
  DeviceArray<int> d_in(in), out(96);
  launched_as_asked([&] { votes<<<1, 96>>>(d_in.p, out.p); });
  const int positives = static_cast<int>(std::count_if(in.begin(), in.end(), [](int v) { return v > 0; }));
  for (int v : out.host()) CHECK(v == positives * 100 + 1 * 10 + 1);
}

TEST_CASE("regions: early returns of whole blocks and of threads after the last barrier") {
  DeviceArray<int> out(4 * kBlock);
  launched_as_asked([&] { early_exits<<<4, kBlock>>>(out.p, 2); });
  const std::vector<int> h = out.host();
  for (int b = 0; b < 4; ++b)
    for (int t = 0; t < kBlock; ++t) {
      const int want = b < 2 && t % 3 != 1 ? (kBlock - 1 - t) * 3 : 0;
      CHECK(h[b * kBlock + t] == want);
    }
}

TEST_CASE("regions: a lambda across barriers, a helper reading threadIdx, a parameter per thread") {
  const int n = 200;
  std::vector<int> in(n);
  std::iota(in.begin(), in.end(), 1);
  DeviceArray<int> d_in(in), out(2 * 100);
  launched_as_asked([&] { lambda_loads<<<2, 100, 100 * sizeof(int)>>>(d_in.p, out.p, n); });
  const std::vector<int> h = out.host();
  for (int b = 0; b < 2; ++b)
    for (int t = 0; t < 100; ++t) {
      const int g = b * 100 + t;
      const int mine = in[b * 100 + (t + 1) % 100];
      const int later = g + 1 < n ? in[g + 1] : -1;
      CHECK(h[g] == mine * 1000 + later);
    }
  DeviceArray<int> codes(64);
  launched_as_asked([&] { helper_and_parameter<<<1, dim3(8, 8)>>>(codes.p, 5); });
  const std::vector<int> c = codes.host();
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) {
      const int other = 63 - (y * 8 + x);
      CHECK(c[y * 8 + x] == (other % 8) * 7 + other / 8 + (5 + x) * 2);
    }
}

TEST_CASE("regions: cooperative groups' thread block and its sync") {
  std::vector<int> in(128);
  for (int i = 0; i < 128; ++i) in[i] = i * 3 - 50;
  DeviceArray<int> d_in(in), out(128);
  launched_as_asked([&] { block_group_rounds<<<2, 64>>>(d_in.p, out.p); });
  const std::vector<int> h = out.host();
  for (int b = 0; b < 2; ++b)
    for (int r = 0; r < 64; ++r) {
      const int next = (r + 1) % 64;
      CHECK(h[b * 64 + r] == (in[b * 64 + next] + in[b * 64 + (next + 63) % 64]) * 64);
    }
}

TEST_CASE("regions: a fault after a barrier names its block and thread") {
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  gpulab::emu::take_diagnostics();
  int* out = nullptr;
  REQUIRE(cudaMalloc(&out, 64 * sizeof(int)) == cudaSuccess);
  fault_after_barrier<<<2, 64>>>(out, nullptr);
  CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
  const std::vector<gpulab::emu::Diagnostic> all = gpulab::emu::take_diagnostics();
  REQUIRE(all.size() == 1);
  CHECK(all[0].kind == "out-of-bounds");
  CHECK(all[0].block == "(1,0,0)");
  CHECK(all[0].threads == "(37,0,0)");
  REQUIRE(cudaDeviceReset() == cudaSuccess);
}
