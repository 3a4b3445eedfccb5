// Conformance: cooperative groups beyond the block. thread_group as the
// type-erased block and as what tiled_partition(group, n) returns at run time
// (sizes, ranks, sync); static tiles' meta_group_rank/size from a block and
// from a parent tile; this_thread(); coalesced_threads() inside divergent
// branches (the lanes that took the branch, ranked in lane order, with
// shuffles, votes and a run-time tile of them) and the warp-aggregated atomic
// increment built on it; every lane of a warp, partial or not, in every
// block; binary_partition and labeled_partition of a warp
// tile; tiles of 64 and 128 threads (block_tile_memory accepted) with sync,
// shfl, any and all. Plain CUDA: the expected values are CUDA 13's, computed
// on the host, and the file builds with nvcc for a GPU run.
#include <catch2/catch.hpp>
#include <cooperative_groups.h>

#include <algorithm>
#include <vector>

#include "device_array.cuh"

namespace cg = cooperative_groups;

constexpr int kFields = 10;

// Per thread: the block as a thread_group, a run-time tile of n, a run-time
// tile of 4 cut from a run-time tile of 16, and static tiles' meta groups.
__global__ void thread_groups(unsigned long long* out, unsigned n) {
  const unsigned t = threadIdx.x;
  unsigned long long* o = out + t * kFields;
  cg::thread_block block = cg::this_thread_block();
  cg::thread_group as_group = block;
  o[0] = as_group.size();
  o[1] = as_group.thread_rank();
  as_group.sync();
  cg::thread_group tile = cg::tiled_partition(block, n);
  tile.sync();
  o[2] = tile.size() * 1000 + tile.thread_rank();
  cg::thread_group sixteen = cg::tiled_partition(block, 16);
  cg::thread_group four = cg::tiled_partition(sixteen, 4);
  o[3] = four.size() * 1000 + four.thread_rank();
  cg::thread_block_tile<8> eight = cg::tiled_partition<8>(block);
  o[4] = eight.meta_group_size() * 1000 + eight.meta_group_rank();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  cg::thread_block_tile<4> quad = cg::tiled_partition<4>(warp);
  o[5] = quad.meta_group_size() * 1000 + quad.meta_group_rank();
  cg::thread_group warp_group = warp;  // a tile converts to a thread_group
  o[6] = warp_group.size() * 1000 + warp_group.thread_rank();
  cg::thread_block_tile<32> erased = warp;  // and to thread_block_tile<32> with no parent type
  o[7] = erased.meta_group_rank() * 1000 + erased.thread_rank();
  cg::thread_block_tile<1> me = cg::this_thread();
  o[8] = me.size() * 1000 + me.thread_rank();
  o[9] = cg::group_size(quad) * 1000 + cg::thread_rank(quad);
}

TEST_CASE("thread_group: the block and run-time tiles, static tiles' meta groups") {
  const unsigned threads = 96;
  for (unsigned n : {1u, 2u, 4u, 8u, 16u, 32u}) {
    DeviceArray<unsigned long long> out(threads * kFields);
    thread_groups<<<2, threads>>>(out.p, n);
    const auto h = out.host();
    for (unsigned t = 0; t < threads; ++t) {
      INFO("tile size " << n << ", thread " << t);
      const unsigned long long* o = &h[t * kFields];
      CHECK(o[0] == threads);
      CHECK(o[1] == t);
      CHECK(o[2] == n * 1000 + t % n);
      CHECK(o[3] == 4 * 1000 + t % 4);
      CHECK(o[4] == (threads / 8) * 1000 + t / 8);
      CHECK(o[5] == 8 * 1000 + (t % 32) / 4);
      CHECK(o[6] == 32 * 1000 + t % 32);
      CHECK(o[7] == (t / 32) * 1000 + t % 32);
      CHECK(o[8] == 1 * 1000 + 0);
      CHECK(o[9] == 4 * 1000 + t % 4);
    }
  }
}

constexpr int kCoalescedFields = 9;

// Lanes whose lane % 3 == 0 take one branch, the others the other branch.
__global__ void coalesced_branches(int* out) {
  const int t = threadIdx.x;
  int* o = out + t * kCoalescedFields;
  const bool third = t % 32 % 3 == 0;
  if (third) {
    cg::coalesced_group g = cg::coalesced_threads();
    o[0] = 1;
    o[1] = g.size();
    o[2] = g.thread_rank();
    o[3] = g.shfl(t, g.size() - 1);       // the last member's thread index
    o[4] = g.shfl_down(t, 1);             // the next member's (the last keeps its own)
    o[5] = g.shfl_up(t, 2);               // two members back (the first two keep their own)
    o[6] = static_cast<int>(g.ballot(t % 2 == 0));  // bit r: member r is even
    o[7] = g.any(t % 32 == 9) * 10 + g.all(t % 32 < 31);
    cg::coalesced_group pairs = cg::tiled_partition(g, 2);
    o[8] = pairs.size() * 100 + pairs.thread_rank() * 10 + pairs.meta_group_rank();
  } else {
    cg::coalesced_group g = cg::coalesced_threads();
    o[0] = 2;
    o[1] = g.size();
    o[2] = g.thread_rank();
    o[3] = g.shfl(t, 0);
    o[4] = g.shfl_down(t, 3);
    o[5] = g.shfl_up(t, 1);
    o[6] = static_cast<int>(g.ballot(t % 32 > 20));
    o[7] = g.any(t % 32 == 9) * 10 + g.all(t % 32 > 0);
    cg::coalesced_group quads = cg::tiled_partition(g, 4);
    o[8] = quads.size() * 100 + quads.thread_rank() * 10 + quads.meta_group_rank();
  }
}

TEST_CASE("coalesced_threads: the lanes that took the branch, ranked in lane order") {
  const int threads = 64;
  DeviceArray<int> out(threads * kCoalescedFields);
  coalesced_branches<<<1, threads>>>(out.p);
  const auto h = out.host();
  for (int warp = 0; warp < 2; ++warp) {
    for (int branch = 1; branch <= 2; ++branch) {
      std::vector<int> members;
      for (int lane = 0; lane < 32; ++lane) {
        if ((lane % 3 == 0) == (branch == 1)) members.push_back(warp * 32 + lane);
      }
      const int size = static_cast<int>(members.size());
      unsigned ballot = 0;
      bool any9 = false, all_pred = true;
      for (int r = 0; r < size; ++r) {
        const int lane = members[r] % 32;
        if (branch == 1 ? members[r] % 2 == 0 : lane > 20) ballot |= 1u << r;
        any9 = any9 || lane == 9;
        all_pred = all_pred && (branch == 1 ? lane < 31 : lane > 0);
      }
      for (int r = 0; r < size; ++r) {
        const int t = members[r];
        INFO("warp " << warp << ", branch " << branch << ", thread " << t);
        const int* o = &h[t * kCoalescedFields];
        CHECK(o[0] == branch);
        CHECK(o[1] == size);
        CHECK(o[2] == r);
        if (branch == 1) {
          CHECK(o[3] == members[size - 1]);
          CHECK(o[4] == (r + 1 < size ? members[r + 1] : t));
          CHECK(o[5] == (r >= 2 ? members[r - 2] : t));
        } else {
          CHECK(o[3] == members[0]);
          CHECK(o[4] == (r + 3 < size ? members[r + 3] : t));
          CHECK(o[5] == (r >= 1 ? members[r - 1] : t));
        }
        CHECK(static_cast<unsigned>(o[6]) == ballot);
        CHECK(o[7] == (any9 ? 10 : 0) + (all_pred ? 1 : 0));
        const int tile = branch == 1 ? 2 : 4;
        const int tile_size = std::min(tile, size - r / tile * tile);
        CHECK(o[8] == tile_size * 100 + (r % tile) * 10 + r / tile);
      }
    }
  }
}

// Stream compaction with a warp-aggregated atomic: one atomicAdd per group of active lanes.
__device__ int aggregated_increment(int* counter) {
  cg::coalesced_group active = cg::coalesced_threads();
  int base = 0;
  if (active.thread_rank() == 0) base = atomicAdd(counter, static_cast<int>(active.size()));
  return active.shfl(base, 0) + static_cast<int>(active.thread_rank());
}

__global__ void keep_positive(const int* in, int n, int* out, int* count) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    if (in[i] > 0) out[aggregated_increment(count)] = in[i];
  }
}

TEST_CASE("coalesced_threads: warp-aggregated atomics compact an array") {
  const int n = 5000;
  std::vector<int> in(n);
  std::vector<int> expected;
  for (int i = 0; i < n; ++i) {
    in[i] = (i * 7919) % 23 - 11;
    if (in[i] > 0) expected.push_back(in[i]);
  }
  DeviceArray<int> d_in(in), d_out(n), d_count(1);
  keep_positive<<<3, 128>>>(d_in.p, n, d_out.p, d_count.p);
  const auto count = d_count.host();
  REQUIRE(count[0] == static_cast<int>(expected.size()));
  auto got = d_out.host();
  got.resize(expected.size());
  std::sort(got.begin(), got.end());
  std::sort(expected.begin(), expected.end());
  CHECK(got == expected);
}

// Every lane reaches coalesced_threads(): the group is the whole warp (16 lanes
// in a block's last, partial warp), also for the lanes that start after the
// first one got there, and in blocks that follow others on the same worker.
__global__ void coalesced_everyone(int* out) {
  cg::coalesced_group all = cg::coalesced_threads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<int>(all.size() * 100 + all.thread_rank());
}

TEST_CASE("coalesced_threads: every lane of the warp, in every block, when all of them reach it") {
  const int blocks = 16, threads = 48;
  DeviceArray<int> out(blocks * threads);
  coalesced_everyone<<<blocks, threads>>>(out.p);
  const auto h = out.host();
  for (int i = 0; i < blocks * threads; ++i) {
    INFO("thread " << i % threads << " of block " << i / threads);
    const int lane = i % threads % 32;
    CHECK(h[i] == (i % threads < 32 ? 32 : 16) * 100 + lane);
  }
}

__global__ void partitions(int* out) {
  const int t = threadIdx.x;
  int* o = out + t * 4;
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
  cg::coalesced_group odd_even = cg::binary_partition(warp, t % 2 == 1);
  o[0] = odd_even.size() * 100 + odd_even.thread_rank();
  o[1] = odd_even.meta_group_size() * 10 + odd_even.meta_group_rank();
  cg::coalesced_group by_label = cg::labeled_partition(warp, t % 4);
  o[2] = by_label.size() * 100 + by_label.thread_rank();
  o[3] = by_label.meta_group_size() * 10 + by_label.meta_group_rank() + 1000 * by_label.shfl(t, 0);
}

TEST_CASE("binary_partition and labeled_partition split a warp tile") {
  DeviceArray<int> out(64 * 4);
  partitions<<<1, 64>>>(out.p);
  const auto h = out.host();
  for (int t = 0; t < 64; ++t) {
    INFO("thread " << t);
    const int lane = t % 32;
    CHECK(h[t * 4 + 0] == 16 * 100 + lane / 2);
    CHECK(h[t * 4 + 1] == 2 * 10 + lane % 2);
    CHECK(h[t * 4 + 2] == 8 * 100 + lane / 4);
    CHECK(h[t * 4 + 3] == 4 * 10 + lane % 4 + 1000 * (t / 32 * 32 + lane % 4));
  }
}

constexpr int kBigFields = 7;

// Tiles of 64 and 128 threads: sync makes shared memory written by the tile visible to it.
__global__ void big_tiles(int* out) {
  __shared__ cg::block_tile_memory<256> scratch;
  __shared__ int values[256];
  cg::thread_block block = cg::this_thread_block(scratch);
  const int t = threadIdx.x;
  int* o = out + t * kBigFields;
  cg::thread_block_tile<64> t64 = cg::tiled_partition<64>(block);
  cg::thread_block_tile<128> t128 = cg::tiled_partition<128>(block);
  values[t] = t * 3;
  t64.sync();
  o[0] = values[t / 64 * 64 + (t64.thread_rank() + 1) % 64];
  o[1] = t64.meta_group_size() * 100 + t64.meta_group_rank() * 10 + (t128.meta_group_rank());
  o[2] = t64.shfl(t * 2, 5);
  o[3] = t128.shfl(t + 1000, 127);
  o[4] = t64.any(t == 70) * 10 + t64.all(t % 64 != 63);
  o[5] = t128.all(t < 256) * 10 + t128.any(t > 1000);
  cg::thread_block_tile<32> half = cg::tiled_partition<32>(t64);
  o[6] = half.meta_group_size() * 100 + half.meta_group_rank() * 10 + static_cast<int>(t64.num_threads() / 64);
}

TEST_CASE("tiles of 64 and 128 threads: sync, shfl, any, all, meta groups") {
  DeviceArray<int> out(256 * kBigFields);
  big_tiles<<<2, 256>>>(out.p);
  const auto h = out.host();
  for (int t = 0; t < 256; ++t) {
    INFO("thread " << t);
    const int* o = &h[t * kBigFields];
    CHECK(o[0] == (t / 64 * 64 + (t % 64 + 1) % 64) * 3);
    CHECK(o[1] == 4 * 100 + (t / 64) * 10 + t / 128);
    CHECK(o[2] == (t / 64 * 64 + 5) * 2);
    CHECK(o[3] == t / 128 * 128 + 127 + 1000);
    CHECK(o[4] == (t / 64 == 1 ? 10 : 0) + 0);
    CHECK(o[5] == 10);
    CHECK(o[6] == 2 * 100 + (t % 64) / 32 * 10 + 1);
  }
}
