// What a kernel's region form writes around a warp collective (grader/rewriter/region_warps.cpp):
// each thread's value travels as the bits the fibers' shuffle moves (gpulab/emu/warp_functions.hpp),
// and comes back as the type the call returns. The exchange itself is RegionBlock::warp
// (thread_regions.hpp, grader/emu/src/region_warps.cpp).
#pragma once
#include <cstring>
#include <type_traits>

namespace gpulab::emu {

enum class WarpOp : int;

// The bits of a shuffle's value, deduced as __shfl_sync's template deduces its `var`.
template <class T> inline unsigned long long warp_bits(T value) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "warp shuffles move values of at most 8 bytes");
  unsigned long long bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}
// The type __shfl_sync returns for a value (named in decltype only, never called).
template <class T> T warp_deduced(T value);
template <class T> inline T warp_value(unsigned long long bits) {
  T out;
  std::memcpy(&out, &bits, sizeof(T));
  return out;
}

}  // namespace gpulab::emu
