// What one warp-level memory request costs, computed from the addresses its
// active lanes asked for, by the rules the hardware follows (CUDA C++
// Programming Guide, "Global Memory" and "Shared Memory" of compute
// capability 5.x and later): global memory moves whole 32-byte sectors;
// shared memory serves 32 four-byte banks per pass, one word per bank, with
// a warp's 8-byte accesses taken a half-warp and 16-byte accesses a quarter-
// warp at a time; lanes reading the same word share it (broadcast).
#pragma once
#include <cstddef>
#include <cstdint>

namespace gpulab::emu::check {

struct LaneAccess {
  uintptr_t address = 0;
  uint32_t size = 0;  // bytes
  uint32_t lane = 0;  // 0..31
};

struct GlobalRequestCost {
  unsigned sectors = 0;        // distinct 32-byte sectors touched
  unsigned ideal_sectors = 0;  // ceil(bytes asked for / 32)
};
// `lanes` in increasing lane order, n >= 1.
GlobalRequestCost global_request_cost(const LaneAccess* lanes, size_t n);

struct SharedRequestCost {
  unsigned wavefronts = 0;        // passes through the banks
  unsigned ideal_wavefronts = 0;  // passes with no conflict
  unsigned worst_ways = 0;        // the most distinct words one bank had to serve in one pass
};
SharedRequestCost shared_request_cost(const LaneAccess* lanes, size_t n);

struct AtomicSpread {
  unsigned distinct_addresses = 0;
  unsigned most_on_one_address = 0;  // lanes that updated the busiest address
};
AtomicSpread atomic_spread(const LaneAccess* lanes, size_t n);

struct LaneStride {
  int64_t bytes = 0;  // address difference per lane between the first two active lanes
  // At least 3 in 4 consecutive pairs of active lanes follow it (a 16 x 16 block's warp spans
  // two rows: the jump between them does not hide the stride within each).
  bool uniform = true;
};
// Only meaningful for n >= 2.
LaneStride lane_stride(const LaneAccess* lanes, size_t n);

}  // namespace gpulab::emu::check
