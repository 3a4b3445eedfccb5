// Race check on reductions: a shared-memory tree missing the barrier after the
// load is reported, the correct tree is not; a warp-shuffle reduction is not;
// legacy warp-synchronous `volatile` unrolling of the last warp is reported
// (a race since Volta) unless __syncwarp() separates each step's reads from
// its writes; a partial-mask __syncwarp orders only the lanes it names.
#include <catch2/catch.hpp>

#include <vector>

#include "race_test_support.hpp"

using namespace race_test;

__global__ void tree_sum(const int* in, int* out, int n, bool barrier_after_load) {
  __shared__ int partial[256];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + t;
  partial[t] = i < (unsigned)n ? in[i] : 0;
  if (barrier_after_load) __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, partial[0]);
}

__global__ void shuffle_sum(const int* in, int* out, int n) {
  __shared__ int warp_sums[32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < (unsigned)n ? in[i] : 0;
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / 32 ? warp_sums[lane] : 0;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0) atomicAdd(out, v);
  }
}

// Blocks of 64 threads: the first warp folds the second warp's values, then itself.
__global__ void last_warp_volatile(const int* in, int* out, int n, bool with_syncwarp) {
  __shared__ int s[64];
  const unsigned t = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + t;
  s[t] = i < (unsigned)n ? in[i] : 0;
  __syncthreads();
  if (t < 32) {
    volatile int* v = s;
    if (!with_syncwarp) {
      // The classic pre-Volta unrolling: correct only if the warp runs in lockstep.
      v[t] = v[t] + v[t + 32];
      v[t] = v[t] + v[t + 16];
      v[t] = v[t] + v[t + 8];
      v[t] = v[t] + v[t + 4];
      v[t] = v[t] + v[t + 2];
      v[t] = v[t] + v[t + 1];
    } else {
      // The Volta-safe form: every step's reads, __syncwarp(), its writes, __syncwarp().
      int x = v[t];
      for (int o = 32; o > 0; o >>= 1) {
        x += v[t + o < 64 ? t + o : t] * (t + o < 64);
        __syncwarp();
        v[t] = x;
        __syncwarp();
      }
    }
  }
  if (t == 0) atomicAdd(out, s[0]);
}

// Lane 0 writes, lanes named in `mask` synchronise, then lane `reader` reads.
__global__ void partial_syncwarp(int* data, unsigned mask, unsigned reader) {
  const unsigned lane = threadIdx.x;
  if (lane == 0) data[0] = 42;
  if (mask >> lane & 1u) __syncwarp(mask);
  if (lane == reader) data[1] = data[0];
}

namespace {
std::vector<int> ones(int n) { return std::vector<int>(n, 1); }

int run_tree(bool barrier_after_load) {
  const int n = 1000;
  DeviceBuffer<int> in(ones(n));
  DeviceBuffer<int> out(1);
  tree_sum<<<(n + 255) / 256, 256>>>(in.p, out.p, n, barrier_after_load);
  cudaDeviceSynchronize();
  return out.to_host(1)[0];
}

int run_last_warp(bool with_syncwarp) {
  const int n = 640;
  DeviceBuffer<int> in(ones(n));
  DeviceBuffer<int> out(1);
  last_warp_volatile<<<n / 64, 64>>>(in.p, out.p, n, with_syncwarp);
  cudaDeviceSynchronize();
  return out.to_host(1)[0];
}
}  // namespace

TEST_CASE("a tree reduction missing the barrier after the load is reported") {
  take();
  run_tree(false);
  const auto all = take();
  INFO(dump(all));
  const auto races = of_kind(all, "data-race");
  REQUIRE(!races.empty());
  CHECK(races.front().kernel == "tree_sum");
  CHECK(contains(races.front().message, "__shared__ variable declared at"));
  CHECK(contains(races.front().message, "test_reduction.cu:15"));
  CHECK(contains(races.front().message, "same barrier interval (before the block's first __syncthreads())"));
}

TEST_CASE("a tree reduction with its barriers is not reported") {
  take();
  CHECK(run_tree(true) == 1000);
  const auto all = take();
  INFO(dump(all));
  CHECK(all.empty());
}

TEST_CASE("a warp-shuffle reduction is not reported") {
  take();
  const int n = 5000;
  DeviceBuffer<int> in(ones(n));
  DeviceBuffer<int> out(1);
  shuffle_sum<<<(n + 255) / 256, 256>>>(in.p, out.p, n);
  cudaDeviceSynchronize();
  CHECK(out.to_host(1)[0] == n);
  const auto all = take();
  INFO(dump(all));
  CHECK(all.empty());
}

TEST_CASE("volatile warp-synchronous unrolling without __syncwarp is reported") {
  take();
  run_last_warp(false);
  const auto all = take();
  INFO(dump(all));
  const auto races = of_kind(all, "data-race");
  REQUIRE(!races.empty());
  CHECK(races.front().kernel == "last_warp_volatile");
  CHECK(contains(races.front().message, "volatile"));
  CHECK(contains(races.front().message, "in warp 0"));
  CHECK(contains(races.front().message, "__syncwarp()"));
}

TEST_CASE("warp-synchronous unrolling with __syncwarp between reads and writes is not reported") {
  take();
  CHECK(run_last_warp(true) == 640);
  const auto all = take();
  INFO(dump(all));
  CHECK(all.empty());
}

TEST_CASE("a partial-mask __syncwarp orders only the lanes in its mask") {
  DeviceBuffer<int> data(2);
  take();
  partial_syncwarp<<<1, 32>>>(data.p, 0x0000ffffu, 5);  // lanes 0 and 5 synchronise
  cudaDeviceSynchronize();
  auto all = take();
  INFO(dump(all));
  CHECK(all.empty());
  partial_syncwarp<<<1, 32>>>(data.p, 0x0000ffffu, 20);  // lane 20 is not in the mask
  cudaDeviceSynchronize();
  all = take();
  INFO(dump(all));
  CHECK(of_kind(all, "data-race").size() == 1);
}
