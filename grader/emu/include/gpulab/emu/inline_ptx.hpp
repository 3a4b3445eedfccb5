// What inline PTX runs as on the emulator. The source rewriter
// (grader/rewriter/ptx_translate.cpp) turns each `asm("..." : outputs : inputs)`
// whose instructions it knows into C++ that calls these functions: operands are
// copied into typed registers (`in`), each instruction reads and writes them
// (`as`, `imm`, `put`) and the outputs are copied back (`out`). The semantics
// are the PTX ISA's (each function names its instruction); values the hardware
// chooses (%warpid, %smid, %clock) are documented in grader/emu/src/README.md.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "gpulab/emu/async_copy.hpp"
#include "gpulab/emu/device_math.hpp"
#include "gpulab/emu/execution_context.hpp"
#include "gpulab/emu/group_waits.hpp"
#include "gpulab/emu/synchronization.hpp"
#include "gpulab/emu/warp_functions.hpp"

namespace gpulab::emu::ptx {

// ---- registers and operands ------------------------------------------------------------------

// The register an asm operand constraint names: h (16-bit), r (32), l (64), f (f32), d (f64);
// n is an immediate, kept as a 64-bit integer.
template <char C> struct reg_of;
template <> struct reg_of<'h'> { using type = std::uint16_t; };
template <> struct reg_of<'r'> { using type = std::uint32_t; };
template <> struct reg_of<'l'> { using type = std::uint64_t; };
template <> struct reg_of<'f'> { using type = float; };
template <> struct reg_of<'d'> { using type = double; };
template <> struct reg_of<'n'> { using type = long long; };
template <char C> using reg = typename reg_of<C>::type;

// The bits of `v` (a trivially copyable value of at most To's size) as To, zero-padded.
template <class To, class From> inline To bits_as(const From& v) {
  static_assert(sizeof(From) <= sizeof(To), "inline PTX: an operand is wider than its register");
  if constexpr (sizeof(From) == sizeof(To)) {
    To out;
    std::memcpy(&out, &v, sizeof(To));
    return out;
  } else {
    using U = std::conditional_t<sizeof(To) == 8, std::uint64_t,
                                 std::conditional_t<sizeof(To) == 4, std::uint32_t, std::uint16_t>>;
    U u = 0;
    std::memcpy(&u, &v, sizeof(From));
    return bits_as<To>(u);
  }
}

// A C++ operand's value in the register of its constraint, as nvcc passes it: numbers converted,
// pointers as their address, a float in an integer register (and the reverse) as its bits.
template <char C, class T> inline reg<C> in(const T& v) {
  using R = reg<C>;
  using V = std::remove_cv_t<T>;
  if constexpr (std::is_pointer_v<V>) {
    return static_cast<R>(reinterpret_cast<std::uintptr_t>(v));
  } else if constexpr (std::is_enum_v<V>) {
    return static_cast<R>(static_cast<std::underlying_type_t<V>>(v));
  } else if constexpr (std::is_arithmetic_v<V> &&
                       (std::is_floating_point_v<V> == std::is_floating_point_v<R> || sizeof(V) != sizeof(R))) {
    if constexpr (std::is_floating_point_v<V> && !std::is_floating_point_v<R>) {
      return bits_as<R>(v);  // a double in a wider register: its bits (only f32 in l would get here)
    } else {
      return static_cast<R>(v);
    }
  } else {
    return bits_as<R>(v);
  }
}

// A register's value written back to the C++ lvalue of an output operand.
template <class T, class R> inline void out(T& target, R r) {
  using V = std::remove_cv_t<T>;
  if constexpr (std::is_pointer_v<V>) {
    target = reinterpret_cast<V>(static_cast<std::uintptr_t>(r));
  } else if constexpr (std::is_enum_v<V>) {
    target = static_cast<V>(r);
  } else if constexpr (std::is_arithmetic_v<V> && std::is_floating_point_v<V> == std::is_floating_point_v<R>) {
    target = static_cast<V>(r);
  } else if constexpr (std::is_arithmetic_v<V> && sizeof(V) == sizeof(R)) {
    target = bits_as<V>(r);
  } else if constexpr (std::is_arithmetic_v<V> && std::is_floating_point_v<R>) {
    target = static_cast<V>(bits_as<std::conditional_t<sizeof(R) == 8, std::uint64_t, std::uint32_t>>(r));
  } else {
    static_assert(sizeof(V) <= sizeof(R), "inline PTX: an output operand is wider than its register");
    std::memcpy(&target, &r, sizeof(V));
  }
}

// A register read as an instruction's type: integers converted (narrowed or extended), an integer
// register read as a float type (and the reverse) reinterpreted, as PTX's untyped registers are.
template <class T, class R> inline T as(R r) {
  if constexpr (std::is_same_v<T, bool>) {
    return r != R(0);
  } else if constexpr (std::is_floating_point_v<T> == std::is_floating_point_v<R>) {
    return static_cast<T>(r);
  } else if constexpr (sizeof(T) == sizeof(R)) {
    return bits_as<T>(r);
  } else if constexpr (std::is_floating_point_v<T>) {  // a wider integer register holding a float's bits
    return bits_as<T>(static_cast<std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>>(r));
  } else {
    return static_cast<T>(bits_as<std::conditional_t<sizeof(R) == 8, std::uint64_t, std::uint32_t>>(r));
  }
}

// An immediate operand as the instruction's type (a number, converted).
template <class T, class V> inline T imm(V v) { return static_cast<T>(v); }
inline float f32_bits(std::uint32_t b) { return bits_as<float>(b); }    // 0fXXXXXXXX
inline double f64_bits(std::uint64_t b) { return bits_as<double>(b); }  // 0dXXXXXXXXXXXXXXXX

// An instruction's result written to a register (an operand's or one the asm declared).
template <class D, class T> inline void put(D& d, T v) {
  if constexpr (std::is_same_v<D, bool>) {
    d = v != T(0);
  } else if constexpr (std::is_floating_point_v<D> == std::is_floating_point_v<T>) {
    d = static_cast<D>(v);
  } else if constexpr (sizeof(D) == sizeof(T)) {
    d = bits_as<D>(v);
  } else if constexpr (std::is_floating_point_v<T>) {  // a float result in a wider integer register
    d = static_cast<D>(bits_as<std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>>(v));
  } else {
    d = as<D>(v);
  }
}

// ---- special registers -------------------------------------------------------------------------

// Emulated values of what the hardware chooses: see grader/emu/src/README.md ("Inline PTX").
constexpr std::uint32_t kNsmid = 132;   // SM identifiers: the emulated H100's SMs
constexpr std::uint32_t kNwarpid = 64;  // warp identifiers per SM: an H100 SM holds 64 warps
unsigned long long global_timer();      // %globaltimer: nanoseconds (CLOCK_REALTIME)

inline std::uint32_t laneid() { return gpulab_emu_thread->lane(); }
inline std::uint32_t warpid() { return gpulab_emu_thread->warp() % kNwarpid; }
inline std::uint32_t nwarpid() { return kNwarpid; }
inline std::uint32_t smid() {
  const unsigned long long block =
      blockIdx.x + static_cast<unsigned long long>(gridDim.x) *
                       (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
  return static_cast<std::uint32_t>(block % kNsmid);
}
inline std::uint32_t nsmid() { return kNsmid; }
inline std::uint64_t clock64_reg() { return static_cast<std::uint64_t>(gpulab::emu::device_clock()); }
inline std::uint32_t clock_lo() { return static_cast<std::uint32_t>(clock64_reg()); }
inline std::uint32_t clock_hi() { return static_cast<std::uint32_t>(clock64_reg() >> 32); }
inline std::uint64_t globaltimer() { return global_timer(); }
inline std::uint32_t globaltimer_lo() { return static_cast<std::uint32_t>(global_timer()); }
inline std::uint32_t globaltimer_hi() { return static_cast<std::uint32_t>(global_timer() >> 32); }
inline std::uint32_t lanemask_eq() { return 1u << laneid(); }
inline std::uint32_t lanemask_lt() { return static_cast<std::uint32_t>((1ull << laneid()) - 1); }
inline std::uint32_t lanemask_le() { return static_cast<std::uint32_t>((2ull << laneid()) - 1); }
inline std::uint32_t lanemask_gt() { return ~lanemask_le(); }
inline std::uint32_t lanemask_ge() { return ~lanemask_lt(); }
inline std::uint32_t dynamic_smem_size() { return static_cast<std::uint32_t>(gpulab_emu_launch->dynamic_shared_bytes); }

// ---- shared-memory window ----------------------------------------------------------------------

// A shared-memory address (cvta.to.shared, ld.shared, cp.async's destination) is an offset into
// the running block's shared memory; a generic one is the host address. Addresses outside the
// block's shared memory are reported (file, line) and end the block.
std::uint64_t to_shared_window(std::uint64_t generic, const char* file, int line);
std::uint64_t from_shared_window(std::uint64_t shared, const char* file, int line);

enum class space : int { generic, global, shared, local, constant, param };
enum class order : int { weak, volatile_, relaxed, acquire, release };

template <space S> inline std::uint64_t generic_address(std::uint64_t a, const char* file, int line) {
  if constexpr (S == space::shared) {
    return from_shared_window(a, file, line);
  } else {
    (void)file;
    (void)line;
    return a;
  }
}

// cvta.to.SPACE (generic to SPACE) and cvta.SPACE (SPACE to generic).
template <space S> inline std::uint64_t cvta_to(std::uint64_t a, const char* file, int line) {
  if constexpr (S == space::shared) return to_shared_window(a, file, line);
  (void)file;
  (void)line;
  return a;
}
template <space S> inline std::uint64_t cvta_from(std::uint64_t a, const char* file, int line) {
  return generic_address<S>(a, file, line);
}

// ---- loads and stores ----------------------------------------------------------------------------

// ld / ldu / st of one value. Ordered forms (.volatile, .relaxed, .acquire, .release) are atomic
// accesses; plain ones ordinary C++ accesses (so that the checking build sees them as such).
template <class T, space S, order O> inline T ld(std::uint64_t a, const char* file, int line) {
  const T* p = reinterpret_cast<const T*>(generic_address<S>(a, file, line));
  if constexpr (O == order::weak) {
    return *p;
  } else if constexpr (O == order::volatile_) {
    return *static_cast<const volatile T*>(p);
  } else {
    return __atomic_load_n(p, O == order::acquire ? __ATOMIC_ACQUIRE : __ATOMIC_RELAXED);
  }
}
template <class T, space S, order O> inline void st(std::uint64_t a, T v, const char* file, int line) {
  T* p = reinterpret_cast<T*>(generic_address<S>(a, file, line));
  if constexpr (O == order::weak) {
    *p = v;
  } else if constexpr (O == order::volatile_) {
    *static_cast<volatile T*>(p) = v;
  } else {
    __atomic_store_n(p, v, O == order::release ? __ATOMIC_RELEASE : __ATOMIC_RELAXED);
  }
}

// .v2 / .v4: one access of the whole vector's width (one 8- or 16-byte access, as on a GPU),
// through a GCC vector type that the compiler neither splits nor merges.
template <class T, int N> struct vector_of { typedef T type __attribute__((vector_size(sizeof(T) * N))); };
template <class T, int N, space S>
inline typename vector_of<T, N>::type ld_vec(std::uint64_t a, const char* file, int line) {
  return *reinterpret_cast<const typename vector_of<T, N>::type*>(generic_address<S>(a, file, line));
}
template <class T, int N, space S>
inline void st_vec(std::uint64_t a, typename vector_of<T, N>::type v, const char* file, int line) {
  *reinterpret_cast<typename vector_of<T, N>::type*>(generic_address<S>(a, file, line)) = v;
}

// cp.async.{ca,cg}.shared.global [dst], [src], size{, src_size}: __pipeline_memcpy_async.
inline void cp_async(std::uint64_t dst_shared, std::uint64_t src, std::uint32_t size, std::uint32_t src_size,
                     const char* file, int line) {
  void* dst = reinterpret_cast<void*>(from_shared_window(dst_shared, file, line));
  __pipeline_memcpy_async(dst, reinterpret_cast<const void*>(src), size, src_size < size ? size - src_size : 0, file,
                          line);
}

// ---- synchronisation -----------------------------------------------------------------------------

// bar.sync / barrier.sync a{, b} (wait) and bar.arrive / barrier.arrive a, b: barrier 0 with
// every thread of the block is __syncthreads(); barriers 1 to 15 are named barriers
// (named_barriers.cpp); barrier 0 over part of the block is reported.
void bar_sync(std::uint32_t id, std::uint32_t threads, bool has_threads, bool wait, const char* file, int line);
inline void membar() { gpulab::emu::thread_fence(); }

// ---- integer bit manipulation --------------------------------------------------------------------

// prmt.b32{.mode} d, a, b, c. mode: 0 generic, 1 f4e, 2 b4e, 3 rc8, 4 ecl, 5 ecr, 6 rc16.
inline std::uint32_t prmt(std::uint32_t a, std::uint32_t b, std::uint32_t c, int mode) {
  const std::uint64_t bytes = (static_cast<std::uint64_t>(b) << 32) | a;
  const auto byte = [&](unsigned i) { return static_cast<std::uint32_t>(bytes >> (8 * (i & 7u))) & 0xffu; };
  // The byte each mode selects for result byte i, from the two low bits of c.
  static constexpr unsigned char table[6][4][4] = {
      {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},  // f4e: forward 4 extract
      {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},  // b4e: backward 4 extract
      {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  // rc8: replicate 8
      {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},  // ecl: edge clamp left
      {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},  // ecr: edge clamp right
      {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},  // rc16: replicate 16
  };
  std::uint32_t d = 0;
  for (unsigned i = 0; i < 4; ++i) {
    std::uint32_t v;
    if (mode == 0) {
      const unsigned sel = (c >> (4 * i)) & 0xfu;
      v = byte(sel & 7u);
      if (sel & 8u) v = (v & 0x80u) ? 0xffu : 0u;  // replicate the byte's sign
    } else {
      v = byte(table[mode - 1][c & 3u][i]);
    }
    d |= v << (8 * i);
  }
  return d;
}

// brev.b32 / brev.b64.
inline std::uint32_t brev(std::uint32_t a) { return __brev(a); }
inline std::uint64_t brev(std::uint64_t a) { return __brevll(a); }

// bfe.{u32,s32,u64,s64} d, a, pos, len.
template <class T> inline T bfe(T a, std::uint32_t b, std::uint32_t c) {
  using U = std::make_unsigned_t<T>;
  constexpr unsigned msb = sizeof(T) * 8 - 1;
  const unsigned pos = b & 0xffu, len = c & 0xffu;
  const U ua = static_cast<U>(a);
  U sbit = 0;
  if (std::is_signed_v<T> && len != 0) sbit = (ua >> (pos + len - 1 < msb ? pos + len - 1 : msb)) & 1u;
  U d = 0;
  for (unsigned i = 0; i <= msb; ++i) {
    const U bit = (i < len && pos + i <= msb) ? (ua >> (pos + i)) & 1u : sbit;
    d |= bit << i;
  }
  return static_cast<T>(d);
}

// bfi.{b32,b64} f, a, b, pos, len: b with bits [pos, pos + len) taken from a's low bits.
template <class T> inline T bfi(T a, T b, std::uint32_t c, std::uint32_t d) {
  constexpr unsigned msb = sizeof(T) * 8 - 1;
  const unsigned pos = c & 0xffu, len = d & 0xffu;
  T f = b;
  for (unsigned i = 0; i < len && pos + i <= msb; ++i) {
    f = static_cast<T>((f & ~(T(1) << (pos + i))) | (((a >> i) & T(1)) << (pos + i)));
  }
  return f;
}

// bfind.{u32,s32,u64,s64}{.shiftamt} d, a: the position of the most significant non-sign bit,
// 0xffffffff where there is none.
template <class T> inline std::uint32_t bfind(T a, bool shiftamt) {
  using U = std::make_unsigned_t<T>;
  constexpr unsigned msb = sizeof(T) * 8 - 1;
  U u = static_cast<U>(a);
  if (std::is_signed_v<T> && (u >> msb)) u = static_cast<U>(~u);
  std::uint32_t d = 0xffffffffu;
  for (unsigned i = 0; i <= msb; ++i)
    if ((u >> i) & 1u) d = i;
  if (shiftamt && d != 0xffffffffu) d = msb - d;
  return d;
}

// popc.{b32,b64} and clz.{b32,b64}: a 32-bit count.
inline std::uint32_t popc(std::uint32_t a) { return static_cast<std::uint32_t>(__builtin_popcount(a)); }
inline std::uint32_t popc(std::uint64_t a) { return static_cast<std::uint32_t>(__builtin_popcountll(a)); }
inline std::uint32_t clz(std::uint32_t a) { return a ? static_cast<std::uint32_t>(__builtin_clz(a)) : 32u; }
inline std::uint32_t clz(std::uint64_t a) { return a ? static_cast<std::uint32_t>(__builtin_clzll(a)) : 64u; }

// ---- conversions and the arithmetic around the instructions above ----------------------------

// cvt.sat between integer types: clamped to the destination's range.
template <class D, class A> inline D saturate(A v) {
  if (std::cmp_less(v, std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
  if (std::cmp_greater(v, std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
  return static_cast<D>(v);
}

// cvt.{rni,rzi,rmi,rpi}.int.float (mode 0 to 3): rounded, clamped to the range, NaN gives 0.
template <class D, class F> inline D float_to_int(F x, int mode) {
  if (x != x) return 0;
  const double r = mode == 0   ? std::nearbyint(static_cast<double>(x))
                   : mode == 1 ? std::trunc(static_cast<double>(x))
                   : mode == 2 ? std::floor(static_cast<double>(x))
                               : std::ceil(static_cast<double>(x));
  if (r <= static_cast<double>(std::numeric_limits<D>::min())) return std::numeric_limits<D>::min();
  if (r >= static_cast<double>(std::numeric_limits<D>::max())) return std::numeric_limits<D>::max();
  return static_cast<D>(r);
}

// add, sub, mul.lo, and, or, xor, not, neg, shl, shr, min, max: integers wrap around as in
// registers, shifts past the width give 0 (or the sign), min/max of floats ignore a NaN.
template <class T, bool = std::is_integral_v<T> && !std::is_same_v<T, bool>> struct wrap_of { using type = T; };
template <class T> struct wrap_of<T, true> { using type = std::make_unsigned_t<T>; };
template <class T> using wrap_t = typename wrap_of<T>::type;
template <class T> inline T alu_add(T a, T b) {
  return static_cast<T>(static_cast<wrap_t<T>>(a) + static_cast<wrap_t<T>>(b));
}
template <class T> inline T alu_sub(T a, T b) {
  return static_cast<T>(static_cast<wrap_t<T>>(a) - static_cast<wrap_t<T>>(b));
}
template <class T> inline T alu_mul(T a, T b) {
  return static_cast<T>(static_cast<wrap_t<T>>(a) * static_cast<wrap_t<T>>(b));
}
template <class T> inline T alu_and(T a, T b) { return static_cast<T>(a & b); }
template <class T> inline T alu_or(T a, T b) { return static_cast<T>(a | b); }
template <class T> inline T alu_xor(T a, T b) { return static_cast<T>(a ^ b); }
template <class T> inline T alu_not(T a) {
  if constexpr (std::is_same_v<T, bool>) return !a;
  else return static_cast<T>(~a);
}
template <class T> inline T alu_neg(T a) {
  if constexpr (std::is_floating_point_v<T>) return -a;
  else return static_cast<T>(wrap_t<T>(0) - static_cast<wrap_t<T>>(a));
}
template <class T> inline T alu_shl(T a, std::uint32_t n) {
  return n >= sizeof(T) * 8 ? T(0) : static_cast<T>(static_cast<wrap_t<T>>(a) << n);
}
template <class T> inline T alu_shr(T a, std::uint32_t n) {
  if (n >= sizeof(T) * 8) return std::is_signed_v<T> && a < T(0) ? T(-1) : T(0);
  return static_cast<T>(a >> n);
}
template <class T> inline T alu_min(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) return std::fmin(a, b);
  else return a < b ? a : b;
}
template <class T> inline T alu_max(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) return std::fmax(a, b);
  else return a > b ? a : b;
}

// lop3.b32 d, a, b, c, immLut: bit i of d is bit (a_i b_i c_i) of the table (a the high bit).
inline std::uint32_t lop3(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t lut) {
  std::uint32_t d = 0;
  for (unsigned i = 0; i < 32; ++i) {
    const unsigned index = ((a >> i) & 1u) << 2 | ((b >> i) & 1u) << 1 | ((c >> i) & 1u);
    d |= ((lut >> index) & 1u) << i;
  }
  return d;
}

// vabsdiff4.u32.u32.u32.add d, a, b, c: c plus the sum of the four bytes' absolute differences.
inline std::uint32_t vabsdiff4_add(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  std::uint32_t sum = c;
  for (unsigned i = 0; i < 32; i += 8) {
    const int x = static_cast<int>((a >> i) & 0xffu), y = static_cast<int>((b >> i) & 0xffu);
    sum += static_cast<std::uint32_t>(x > y ? x - y : y - x);
  }
  return sum;
}

// ---- warp-wide operations ------------------------------------------------------------------------

// shfl.sync.{up,down,bfly,idx}.b32 d{|p}, a, b, c, membermask (mode 0 up, 1 down, 2 bfly, 3 idx):
// the source lane from b and c as the ISA computes it, then an exchange among the mask's lanes.
inline std::uint32_t shfl(int mode, std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t membermask,
                          bool* in_range, const char* file, int line) {
  const int lane = static_cast<int>(laneid());
  const int bval = static_cast<int>(b & 0x1fu), cval = static_cast<int>(c & 0x1fu);
  const int mask = static_cast<int>((c >> 8) & 0x1fu);
  const int max_lane = (lane & mask) | (cval & ~mask);
  const int min_lane = lane & mask;
  int j = lane;
  bool p = false;
  switch (mode) {
    case 0:
      j = lane - bval;
      p = j >= max_lane;
      break;
    case 1:
      j = lane + bval;
      p = j <= max_lane;
      break;
    case 2:
      j = lane ^ bval;
      p = j <= max_lane;
      break;
    default:
      j = min_lane | (bval & ~mask);
      p = j <= max_lane;
      break;
  }
  if (!p) j = lane;
  if (in_range) *in_range = p;
  return static_cast<std::uint32_t>(warp_collective(WarpOp::shfl_idx, membermask, a, j, 32, file, line));
}

// activemask.b32: the lanes of the warp that reach this instruction together (a GPU's active
// mask holds the lanes that took the same path), as coalesced_threads() forms them.
inline std::uint32_t activemask(const char* file, int line) { return coalesced_lanes(file, line); }

// vote.sync.{all,any,uni}.pred and vote.sync.ballot.b32 among the mask's lanes.
inline std::uint32_t vote_ballot(bool p, std::uint32_t membermask, const char* file, int line) {
  return static_cast<std::uint32_t>(warp_collective(WarpOp::ballot, membermask, p, 0, 32, file, line));
}
inline bool vote_all(bool p, std::uint32_t membermask, const char* file, int line) {
  return warp_collective(WarpOp::all, membermask, p, 0, 32, file, line) != 0;
}
inline bool vote_any(bool p, std::uint32_t membermask, const char* file, int line) {
  return warp_collective(WarpOp::any, membermask, p, 0, 32, file, line) != 0;
}
inline bool vote_uni(bool p, std::uint32_t membermask, const char* file, int line) {
  const std::uint32_t ones = vote_ballot(p, membermask, file, line);
  const std::uint32_t present = vote_ballot(true, membermask, file, line);
  return ones == 0 || ones == present;
}

}  // namespace gpulab::emu::ptx

// The CUDA intrinsics of the same conversions (cuda::memcpy_async-style code hands their results
// to inline cp.async and ld.shared).
inline size_t __cvta_generic_to_shared(const void* p, const char* file = __builtin_FILE(),
                                       int line = __builtin_LINE()) {
  return gpulab::emu::ptx::to_shared_window(reinterpret_cast<std::uintptr_t>(p), file, line);
}
inline void* __cvta_shared_to_generic(size_t a, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return reinterpret_cast<void*>(gpulab::emu::ptx::from_shared_window(a, file, line));
}
inline size_t __cvta_generic_to_global(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }
inline void* __cvta_global_to_generic(size_t a) { return reinterpret_cast<void*>(a); }
