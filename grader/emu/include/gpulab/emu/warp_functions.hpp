// Warp-level primitives: shuffles, votes, __activemask, the sm_80 warp
// reductions (__reduce_*_sync). Every lane named in the mask must reach the same
// primitive; the runtime exchanges the values exactly and reports lanes that
// never arrive (exited, or waiting elsewhere).
#pragma once
#include <cstring>
#include <type_traits>

namespace gpulab::emu {
enum class WarpOp : int { shfl_idx, shfl_up, shfl_down, shfl_xor, ballot, any, all, sync, match_any };
// Deposits `value` for the calling lane and returns the lane's result once all
// lanes of `mask` have arrived. `arg` is the source lane, delta or xor mask.
unsigned long long warp_collective(WarpOp op, unsigned mask, unsigned long long value, int arg, int width,
                                   const char* file, int line);
unsigned active_mask();

template <class T> inline T shuffle(WarpOp op, unsigned mask, T var, int arg, int width, const char* file, int line) {
  static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "warp shuffles move values of at most 8 bytes");
  unsigned long long bits = 0;
  std::memcpy(&bits, &var, sizeof(T));
  bits = warp_collective(op, mask, bits, arg, width, file, line);
  T out;
  std::memcpy(&out, &bits, sizeof(T));
  return out;
}
}  // namespace gpulab::emu

template <class T>
inline T __shfl_sync(unsigned mask, T var, int src_lane, int width = 32, const char* file = __builtin_FILE(),
                     int line = __builtin_LINE()) {
  return gpulab::emu::shuffle(gpulab::emu::WarpOp::shfl_idx, mask, var, src_lane, width, file, line);
}
template <class T>
inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32, const char* file = __builtin_FILE(),
                        int line = __builtin_LINE()) {
  return gpulab::emu::shuffle(gpulab::emu::WarpOp::shfl_up, mask, var, static_cast<int>(delta), width, file, line);
}
template <class T>
inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32, const char* file = __builtin_FILE(),
                          int line = __builtin_LINE()) {
  return gpulab::emu::shuffle(gpulab::emu::WarpOp::shfl_down, mask, var, static_cast<int>(delta), width, file, line);
}
template <class T>
inline T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32, const char* file = __builtin_FILE(),
                         int line = __builtin_LINE()) {
  return gpulab::emu::shuffle(gpulab::emu::WarpOp::shfl_xor, mask, var, lane_mask, width, file, line);
}
inline unsigned __ballot_sync(unsigned mask, int predicate, const char* file = __builtin_FILE(),
                              int line = __builtin_LINE()) {
  return static_cast<unsigned>(
      gpulab::emu::warp_collective(gpulab::emu::WarpOp::ballot, mask, predicate != 0, 0, 32, file, line));
}
inline int __any_sync(unsigned mask, int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return static_cast<int>(
      gpulab::emu::warp_collective(gpulab::emu::WarpOp::any, mask, predicate != 0, 0, 32, file, line));
}
inline int __all_sync(unsigned mask, int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return static_cast<int>(
      gpulab::emu::warp_collective(gpulab::emu::WarpOp::all, mask, predicate != 0, 0, 32, file, line));
}
template <class T>
inline unsigned __match_any_sync(unsigned mask, T value, const char* file = __builtin_FILE(),
                                 int line = __builtin_LINE()) {
  unsigned long long bits = 0;
  std::memcpy(&bits, &value, sizeof(T) <= 8 ? sizeof(T) : 8);
  return static_cast<unsigned>(
      gpulab::emu::warp_collective(gpulab::emu::WarpOp::match_any, mask, bits, 0, 32, file, line));
}
inline unsigned __activemask() { return gpulab::emu::active_mask(); }

// The warp reductions of sm_80 and later (`__reduce_add_sync` and the rest): every lane of `mask`
// gets the reduction of the values of all of them. Built from one shuffle per lane of the mask, so
// the lanes' arrival is checked as for any shuffle.
namespace gpulab::emu {
template <class T, class Op> inline T warp_reduce(unsigned mask, T value, Op op, const char* file, int line) {
  bool first = true;
  T result{};
  for (int lane = 0; lane < 32; ++lane) {
    if (!(mask >> lane & 1u)) continue;
    const T v = shuffle(WarpOp::shfl_idx, mask, value, lane, 32, file, line);
    result = first ? v : op(result, v);
    first = false;
  }
  return result;
}
}  // namespace gpulab::emu
#define GPULAB_WARP_REDUCE(name, T, expr)                                                                   \
  inline T name(unsigned mask, T value, const char* file = __builtin_FILE(), int line = __builtin_LINE()) { \
    return gpulab::emu::warp_reduce(                                                                        \
        mask, value, [](T a, T b) -> T { return expr; }, file, line);                                       \
  }
GPULAB_WARP_REDUCE(__reduce_add_sync, unsigned, a + b)
GPULAB_WARP_REDUCE(__reduce_add_sync, int, static_cast<int>(static_cast<unsigned>(a) + static_cast<unsigned>(b)))
GPULAB_WARP_REDUCE(__reduce_min_sync, unsigned, a < b ? a : b)
GPULAB_WARP_REDUCE(__reduce_min_sync, int, a < b ? a : b)
GPULAB_WARP_REDUCE(__reduce_max_sync, unsigned, a > b ? a : b)
GPULAB_WARP_REDUCE(__reduce_max_sync, int, a > b ? a : b)
GPULAB_WARP_REDUCE(__reduce_and_sync, unsigned, a& b)
GPULAB_WARP_REDUCE(__reduce_or_sync, unsigned, a | b)
GPULAB_WARP_REDUCE(__reduce_xor_sync, unsigned, a ^ b)
#undef GPULAB_WARP_REDUCE
