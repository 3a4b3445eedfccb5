// Conformance: what warp tiles exchange. shfl, shfl_up, shfl_down and
// shfl_xor of a 24-byte struct (wider than any shuffle instruction: CUDA
// moves it in 32-bit words) on tiles of 32, 16 and 8; any/all/ballot and
// match_any/match_all on tiles of 8; cg::reduce with cg::plus, less, greater,
// bit_and, bit_or and bit_xor on tiles of 32 and 4, on a coalesced group of
// the odd lanes and on a tile of 128; cg::inclusive_scan and exclusive_scan
// (the first member gets T{}) on the same groups. Plain CUDA: the expected
// values are CUDA 13's, computed on the host; the file builds with nvcc.
#include <catch2/catch.hpp>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include <vector>

#include "device_array.cuh"

namespace cg = cooperative_groups;

struct Wide {
  double d;
  int i;
  char c[12];
};

__host__ __device__ Wide wide_of(int t) {
  Wide w;
  w.d = t * 1.5 + 0.25;
  w.i = -7 * t;
  for (int k = 0; k < 12; ++k) w.c[k] = static_cast<char>(t + k);
  return w;
}

bool same(const Wide& a, const Wide& b) {
  if (a.d != b.d || a.i != b.i) return false;
  for (int k = 0; k < 12; ++k) {
    if (a.c[k] != b.c[k]) return false;
  }
  return true;
}

template <unsigned N>
__global__ void wide_shuffles(Wide* out, int src, unsigned delta, unsigned lane_mask) {
  const int t = threadIdx.x;
  cg::thread_block_tile<N> tile = cg::tiled_partition<N>(cg::this_thread_block());
  const Wide v = wide_of(t);
  out[4 * t + 0] = tile.shfl(v, src);
  out[4 * t + 1] = tile.shfl_up(v, delta);
  out[4 * t + 2] = tile.shfl_down(v, delta);
  out[4 * t + 3] = tile.shfl_xor(v, lane_mask);
}

template <unsigned N>
void check_wide_shuffles(int src, unsigned delta, unsigned lane_mask) {
  const int threads = 64;
  DeviceArray<Wide> out(4 * threads);
  wide_shuffles<N><<<1, threads>>>(out.p, src, delta, lane_mask);
  const auto h = out.host();
  for (int t = 0; t < threads; ++t) {
    INFO("tile " << N << ", thread " << t);
    const int base = t / N * N, r = t % N;
    CHECK(same(h[4 * t + 0], wide_of(base + src % static_cast<int>(N))));
    CHECK(same(h[4 * t + 1], wide_of(r >= static_cast<int>(delta) ? t - static_cast<int>(delta) : t)));
    CHECK(same(h[4 * t + 2], wide_of(r + delta < N ? t + static_cast<int>(delta) : t)));
    CHECK(same(h[4 * t + 3], wide_of(base + (r ^ static_cast<int>(lane_mask)))));
  }
}

TEST_CASE("tile shuffles move values wider than 8 bytes") {
  STATIC_REQUIRE(sizeof(Wide) == 24);
  check_wide_shuffles<32>(37, 3, 17);
  check_wide_shuffles<16>(5, 15, 8);
  check_wide_shuffles<8>(7, 1, 5);
}

__global__ void tile_votes(unsigned* out) {
  const int t = threadIdx.x;
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(cg::this_thread_block());
  unsigned* o = out + 6 * t;
  o[0] = tile.ballot(t % 3 == 0);
  o[1] = tile.any(t == 13);
  o[2] = tile.all(t % 8 != 7 || t >= 16);
  o[3] = tile.match_any(t % 8 / 3);  // members 0-2, 3-5, 6-7 have equal values
  int pred = -1;
  o[4] = tile.match_all(t < 16 ? 5 : t, pred);
  o[5] = static_cast<unsigned>(pred);
}

TEST_CASE("tile votes and matches are relative to the tile") {
  DeviceArray<unsigned> out(6 * 32);
  tile_votes<<<1, 32>>>(out.p);
  const auto h = out.host();
  for (int t = 0; t < 32; ++t) {
    INFO("thread " << t);
    const int base = t / 8 * 8;
    unsigned ballot = 0;
    for (int r = 0; r < 8; ++r) {
      if ((base + r) % 3 == 0) ballot |= 1u << r;
    }
    const unsigned group = static_cast<unsigned>(t % 8 / 3);
    const unsigned match = group == 0 ? 0x07u : group == 1 ? 0x38u : 0xc0u;
    CHECK(h[6 * t + 0] == ballot);
    CHECK(h[6 * t + 1] == (base == 8 ? 1u : 0u));
    CHECK(h[6 * t + 2] == (t < 16 ? 0u : 1u));
    CHECK(h[6 * t + 3] == match);
    CHECK(h[6 * t + 4] == (t < 16 ? 0xffu : 0u));
    CHECK(h[6 * t + 5] == (t < 16 ? 1u : 0u));
  }
}

constexpr int kOps = 8;

__host__ __device__ int value_of(int t) { return (t * 37 + 11) % 101 - 50; }

// Every reduction and scan of `g` over value_of(thread index).
template <class Group>
__device__ void reductions(const Group& g, int* o) {
  const int v = value_of(threadIdx.x);
  o[0] = cg::reduce(g, v, cg::plus<int>());
  o[1] = cg::reduce(g, v, cg::less<int>());
  o[2] = cg::reduce(g, v, cg::greater<int>());
  o[3] = static_cast<int>(cg::reduce(g, static_cast<unsigned>(v) | 0x100u, cg::bit_and<unsigned>()));
  o[4] = static_cast<int>(cg::reduce(g, static_cast<unsigned>(v), cg::bit_or<unsigned>()));
  o[5] = static_cast<int>(cg::reduce(g, static_cast<unsigned>(v), cg::bit_xor<unsigned>()));
  o[6] = cg::inclusive_scan(g, v);
  o[7] = cg::exclusive_scan(g, v, cg::greater<int>()) + 1000 * (g.thread_rank() == 0);
}

__global__ void group_reductions(int* out) {
  const int t = threadIdx.x;
  cg::thread_block block = cg::this_thread_block();
  reductions(cg::tiled_partition<32>(block), out + (0 * blockDim.x + t) * kOps);
  reductions(cg::tiled_partition<4>(block), out + (1 * blockDim.x + t) * kOps);
  if (t % 2 == 1) reductions(cg::coalesced_threads(), out + (2 * blockDim.x + t) * kOps);
  reductions(cg::tiled_partition<128>(block), out + (3 * blockDim.x + t) * kOps);
}

// The expected results for the members [first, first + size) (stride 1 or 2) of thread t.
void expect_group(const std::vector<int>& h, int row, int threads, int t, const std::vector<int>& members) {
  int sum = 0, lo = 1 << 30, hi = -(1 << 30), inclusive = 0, before_max = 0;
  unsigned all_and = ~0u, all_or = 0, all_xor = 0;
  bool seen_self = false;
  bool first = true;
  for (int m : members) {
    const int v = value_of(m);
    sum += v;
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
    all_and &= static_cast<unsigned>(v) | 0x100u;
    all_or |= static_cast<unsigned>(v);
    all_xor ^= static_cast<unsigned>(v);
    if (!seen_self) {
      if (m == t) {
        seen_self = true;
        inclusive += v;
      } else {
        inclusive += v;
        before_max = first ? v : (v > before_max ? v : before_max);
        first = false;
      }
    }
  }
  const int* o = &h[(row * threads + t) * kOps];
  CHECK(o[0] == sum);
  CHECK(o[1] == lo);
  CHECK(o[2] == hi);
  CHECK(static_cast<unsigned>(o[3]) == all_and);
  CHECK(static_cast<unsigned>(o[4]) == all_or);
  CHECK(static_cast<unsigned>(o[5]) == all_xor);
  CHECK(o[6] == inclusive);
  CHECK(o[7] == (members[0] == t ? 1000 : before_max));
}

TEST_CASE("cg::reduce and the scans on warp tiles, a coalesced group and a tile of 128") {
  const int threads = 256;
  DeviceArray<int> out(4 * threads * kOps);
  group_reductions<<<1, threads>>>(out.p);
  const auto h = out.host();
  for (int t = 0; t < threads; ++t) {
    INFO("thread " << t);
    auto range = [](int first, int count, int stride) {
      std::vector<int> m;
      for (int k = 0; k < count; ++k) m.push_back(first + k * stride);
      return m;
    };
    {
      INFO("tile of 32");
      expect_group(h, 0, threads, t, range(t / 32 * 32, 32, 1));
    }
    {
      INFO("tile of 4");
      expect_group(h, 1, threads, t, range(t / 4 * 4, 4, 1));
    }
    if (t % 2 == 1) {
      INFO("coalesced odd lanes");
      expect_group(h, 2, threads, t, range(t / 32 * 32 + 1, 16, 2));
    }
    {
      INFO("tile of 128");
      expect_group(h, 3, threads, t, range(t / 128 * 128, 128, 1));
    }
  }
}
