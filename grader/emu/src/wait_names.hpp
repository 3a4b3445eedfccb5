// How reports name what a block's threads wait at: a barrier's kind, a warp collective, a mask.
#pragma once
#include <cstdio>
#include <string>

#include "gpulab/emu/synchronization.hpp"
#include "gpulab/emu/warp_functions.hpp"

namespace gpulab::emu {

inline const char* barrier_name(BarrierKind k) {
  switch (k) {
    case BarrierKind::count: return "__syncthreads_count()";
    case BarrierKind::all: return "__syncthreads_and()";
    case BarrierKind::any: return "__syncthreads_or()";
    case BarrierKind::grid: return "grid.sync()";
    default: return "__syncthreads()";
  }
}
inline const char* warp_op_name(WarpOp op) {
  switch (op) {
    case WarpOp::shfl_idx: return "__shfl_sync";
    case WarpOp::shfl_up: return "__shfl_up_sync";
    case WarpOp::shfl_down: return "__shfl_down_sync";
    case WarpOp::shfl_xor: return "__shfl_xor_sync";
    case WarpOp::ballot: return "__ballot_sync";
    case WarpOp::any: return "__any_sync";
    case WarpOp::all: return "__all_sync";
    case WarpOp::match_any: return "__match_any_sync";
    default: return "__syncwarp";
  }
}
inline std::string hex_mask(unsigned v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

}  // namespace gpulab::emu
