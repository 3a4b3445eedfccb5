// The cost of one warp-level request (grader/emu/check/warp_request.hpp), on
// address patterns whose answer is known by hand.
#include <catch2/catch.hpp>

#include <vector>

#include "warp_request.hpp"

using gpulab::emu::check::LaneAccess;

namespace {
// Lanes 0..n-1 at base + lane * stride, `size` bytes each.
std::vector<LaneAccess> lanes(uintptr_t base, long stride, uint32_t size, unsigned n = 32) {
  std::vector<LaneAccess> v;
  for (unsigned l = 0; l < n; ++l) v.push_back(LaneAccess{base + static_cast<uintptr_t>(l * stride), size, l});
  return v;
}
}  // namespace

TEST_CASE("global requests: sectors of 32 bytes") {
  using gpulab::emu::check::global_request_cost;
  auto v = lanes(0x1000, 4, 4);
  CHECK(global_request_cost(v.data(), v.size()).sectors == 4);
  CHECK(global_request_cost(v.data(), v.size()).ideal_sectors == 4);
  v = lanes(0x1004, 4, 4);  // one element off: 5 sectors
  CHECK(global_request_cost(v.data(), v.size()).sectors == 5);
  v = lanes(0x1000, 8, 4);  // every other float
  CHECK(global_request_cost(v.data(), v.size()).sectors == 8);
  v = lanes(0x1000, 128, 4);
  CHECK(global_request_cost(v.data(), v.size()).sectors == 32);
  v = lanes(0x1000, 0, 4);  // broadcast
  CHECK(global_request_cost(v.data(), v.size()).sectors == 1);
  v = lanes(0x1000, 16, 16);  // float4
  CHECK(global_request_cost(v.data(), v.size()).sectors == 16);
  v = lanes(0x1000 + 31 * 4, -4, 4);  // reversed order: same sectors
  CHECK(global_request_cost(v.data(), v.size()).sectors == 4);
  v = lanes(0x101e, 0, 4, 1);  // one access straddling two sectors
  CHECK(global_request_cost(v.data(), v.size()).sectors == 2);
}

TEST_CASE("shared requests: bank passes") {
  using gpulab::emu::check::shared_request_cost;
  auto v = lanes(0, 4, 4);
  CHECK(shared_request_cost(v.data(), v.size()).wavefronts == 1);
  v = lanes(0, 8, 4);  // stride 2 words: 2-way
  CHECK(shared_request_cost(v.data(), v.size()).wavefronts == 2);
  CHECK(shared_request_cost(v.data(), v.size()).worst_ways == 2);
  v = lanes(0, 128, 4);  // a column of a [32][32] float tile
  CHECK(shared_request_cost(v.data(), v.size()).wavefronts == 32);
  v = lanes(0, 132, 4);  // [32][33]: padded
  CHECK(shared_request_cost(v.data(), v.size()).wavefronts == 1);
  v = lanes(0, 0, 4);  // broadcast
  CHECK(shared_request_cost(v.data(), v.size()).wavefronts == 1);
  v = lanes(0, 12, 4);  // odd stride (3 words): conflict-free
  CHECK(shared_request_cost(v.data(), v.size()).wavefronts == 1);
  v = lanes(0, 8, 8);  // doubles: two half-warp passes, no conflict
  CHECK(shared_request_cost(v.data(), v.size()).wavefronts == 2);
  CHECK(shared_request_cost(v.data(), v.size()).ideal_wavefronts == 2);
  v = lanes(0, 16, 16);  // float4: four quarter-warp passes
  CHECK(shared_request_cost(v.data(), v.size()).wavefronts == 4);
  CHECK(shared_request_cost(v.data(), v.size()).ideal_wavefronts == 4);
  v = lanes(0, 4, 4, 16);  // half a warp active: one pass
  CHECK(shared_request_cost(v.data(), v.size()).wavefronts == 1);
}

TEST_CASE("atomic spread and lane stride") {
  using gpulab::emu::check::atomic_spread;
  using gpulab::emu::check::lane_stride;
  auto v = lanes(0x1000, 0, 4);
  CHECK(atomic_spread(v.data(), v.size()).most_on_one_address == 32);
  CHECK(atomic_spread(v.data(), v.size()).distinct_addresses == 1);
  v = lanes(0x1000, 4, 4);
  CHECK(atomic_spread(v.data(), v.size()).most_on_one_address == 1);
  CHECK(lane_stride(v.data(), v.size()).bytes == 4);
  CHECK(lane_stride(v.data(), v.size()).uniform);
  v[16].address += 1000;  // two half-warps, each contiguous: still a 4-byte stride
  CHECK(lane_stride(v.data(), v.size()).uniform);
  for (size_t i = 0; i < v.size(); i += 2) v[i].address += 100 * i;  // every other lane elsewhere
  CHECK_FALSE(lane_stride(v.data(), v.size()).uniform);
}
