// Race check across blocks: a chained (decoupled look-back style) scan, where
// block b publishes its inclusive prefix, __threadfence(), then raises a flag
// (atomic or volatile) that block b+1 waits for before reading the prefix, is
// not reported; the same without the __threadfence() is.
#include <catch2/catch.hpp>

#include <vector>

#include "race_test_support.hpp"

using namespace race_test;

enum class Flag { atomic, volatile_store, atomic_no_fence };

__global__ void chained_block_sums(const int* in, int* prefix, int* flags, int* out, int n, Flag mode) {
  __shared__ int block_sum;
  __shared__ int before;
  const int t = threadIdx.x, b = blockIdx.x, i = b * blockDim.x + t;
  if (t == 0) block_sum = 0;
  __syncthreads();
  if (i < n) atomicAdd(&block_sum, in[i]);
  __syncthreads();
  if (t == 0) {
    int p = 0;
    if (b > 0) {
      if (mode == Flag::volatile_store) {
        volatile int* f = flags;
        while (f[b - 1] == 0) {
        }
      } else {
        while (atomicAdd(&flags[b - 1], 0) == 0) {
        }
      }
      p = prefix[b - 1];
    }
    prefix[b] = p + block_sum;
    if (mode != Flag::atomic_no_fence) __threadfence();
    if (mode == Flag::volatile_store) {
      volatile int* f = flags;
      f[b] = 1;
    } else {
      atomicExch(&flags[b], 1);
    }
    before = p;
  }
  __syncthreads();
  if (i < n) out[i] = before;
}

namespace {
const int n = 1000, block = 64, blocks = (n + block - 1) / block;

std::vector<int> run(Flag mode) {
  DeviceBuffer<int> in(std::vector<int>(n, 1));
  DeviceBuffer<int> prefix(blocks);
  DeviceBuffer<int> flags(blocks);
  DeviceBuffer<int> out(n);
  chained_block_sums<<<blocks, block>>>(in.p, prefix.p, flags.p, out.p, n, mode);
  cudaDeviceSynchronize();
  return out.to_host(n);
}

bool correct(const std::vector<int>& r) {
  for (int i = 0; i < n; ++i) {
    if (r[i] != i / block * block) return false;
  }
  return true;
}
}  // namespace

TEST_CASE("fence-then-atomic-flag publication between blocks is not reported") {
  take();
  CHECK(correct(run(Flag::atomic)));
  const auto all = take();
  INFO(dump(all));
  CHECK(all.empty());
}

TEST_CASE("fence-then-volatile-flag publication between blocks is not reported") {
  take();
  CHECK(correct(run(Flag::volatile_store)));
  const auto all = take();
  INFO(dump(all));
  CHECK(all.empty());
}

TEST_CASE("publishing to the next block without __threadfence() is reported") {
  take();
  run(Flag::atomic_no_fence);
  const auto all = take();
  INFO(dump(all));
  const auto races = of_kind(all, "data-race");
  REQUIRE(races.size() == 1);
  CHECK(contains(races.front().message, "thread (0,0,0) of block (1,0,0) reads global memory"));
  CHECK(contains(races.front().message, "which thread (0,0,0) of block (0,0,0) wrote before"));
  CHECK(contains(races.front().message, "__threadfence()"));
  CHECK(races.front().block == "(1,0,0), (0,0,0)");
}
