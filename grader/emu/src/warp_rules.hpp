// What a warp collective gives each lane, and the sentences for its misuse, as a GPU defines them:
// one place for the two ways the emulator runs collectives, a block's fibers (warp_lanes.cpp,
// block_runner.cpp) and the region form (region_warps.cpp).
#pragma once
#include <string>

#include "gpulab/emu/warp_functions.hpp"
#include "wait_names.hpp"

namespace gpulab::emu {

// The lane whose value `lane` reads in a shuffle with lane or delta `arg`: its own where the source
// lies outside its segment of `width` lanes (up, down, xor); -1 for a collective that is not a shuffle.
inline int shuffle_source(WarpOp op, int lane, int arg, int width) {
  const int seg = lane / width * width;
  switch (op) {
    case WarpOp::shfl_idx: return seg + ((arg % width) + width) % width;
    case WarpOp::shfl_up: return lane - arg >= seg ? lane - arg : lane;
    case WarpOp::shfl_down: return lane + arg < seg + width ? lane + arg : lane;
    case WarpOp::shfl_xor: return (lane ^ arg) < seg + width ? (lane ^ arg) : lane;
    default: return -1;
  }
}

// A vote (ballot, any, all) over the lanes of `effective`; predicate(k): lane k's value is not zero.
template <class Predicate> inline unsigned long long vote_result(WarpOp op, unsigned effective, Predicate predicate) {
  unsigned bits = 0;
  for (unsigned k = 0; k < 32; ++k)
    if ((effective >> k & 1u) && predicate(k)) bits |= 1u << k;
  if (op == WarpOp::ballot) return bits;
  if (op == WarpOp::any) return bits != 0;
  return bits == effective;  // all
}

inline bool valid_width(int width) { return width > 0 && width <= 32 && (width & (width - 1)) == 0; }

inline std::string lane_not_in_mask(unsigned mask, unsigned lane) {
  return "the mask " + hex_mask(mask) + " does not include the calling lane " + std::to_string(lane) +
         "; a thread must name itself in the mask it passes.";
}
inline std::string bad_width(int width) {
  return "width " + std::to_string(width) + " must be a power of two between 1 and 32.";
}
inline std::string reads_outside_mask(int lane, int src, unsigned mask) {
  return "lane " + std::to_string(lane) + " reads lane " + std::to_string(src) + ", which is not in the mask " +
         hex_mask(mask) + " (or does not exist); the value it gets on a GPU is undefined.";
}

}  // namespace gpulab::emu
