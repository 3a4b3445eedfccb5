// CUDA device math: integer min/max overloads, fast-math and rounding
// intrinsics, bit manipulation, type punning and read-only loads. Rounding
// variants other than round-to-nearest use the host's fesetround.
#pragma once
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <ctime>
#include <functional>
#include <type_traits>

// min/max for every arithmetic pair, as CUDA's math headers provide them. Mixed
// signed/unsigned integers compare as unsigned, integer/float mixes as float.
#define GPULAB_MINMAX(T)                           \
  inline T min(T a, T b) { return b < a ? b : a; } \
  inline T max(T a, T b) { return a < b ? b : a; }
GPULAB_MINMAX(int)
GPULAB_MINMAX(unsigned int)
GPULAB_MINMAX(long)
GPULAB_MINMAX(unsigned long)
GPULAB_MINMAX(long long)
GPULAB_MINMAX(unsigned long long)
#undef GPULAB_MINMAX
// The unsigned and 64-bit forms CUDA's math headers name.
inline unsigned int umin(unsigned int a, unsigned int b) { return b < a ? b : a; }
inline unsigned int umax(unsigned int a, unsigned int b) { return a < b ? b : a; }
inline long long llmin(long long a, long long b) { return b < a ? b : a; }
inline long long llmax(long long a, long long b) { return a < b ? b : a; }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return b < a ? b : a; }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a < b ? b : a; }
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
template <class A, class B,
          class = std::enable_if_t<std::is_arithmetic_v<A> && std::is_arithmetic_v<B> && !std::is_same_v<A, B>>>
inline std::common_type_t<A, B> min(A a, B b) {
  using C = std::common_type_t<A, B>;
  return min(static_cast<C>(a), static_cast<C>(b));
}
template <class A, class B,
          class = std::enable_if_t<std::is_arithmetic_v<A> && std::is_arithmetic_v<B> && !std::is_same_v<A, B>>>
inline std::common_type_t<A, B> max(A a, B b) {
  using C = std::common_type_t<A, B>;
  return max(static_cast<C>(a), static_cast<C>(b));
}

inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float __frsqrt_rn(float x) { return 1.0f / std::sqrt(x); }
inline float __fsqrt_rn(float x) { return std::sqrt(x); }
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline float __fdividef(float x, float y) { return x / y; }
inline float fdividef(float x, float y) { return x / y; }
inline float __saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : (x == x ? x : 0.0f)); }
inline float exp10f(float x) { return std::pow(10.0f, x); }
inline void __sincosf(float x, float* s, float* c) {
  *s = std::sin(x);
  *c = std::cos(x);
}

namespace gpulab::emu {
// Reads a value through memory, so that the compiler cannot compute with it before the rounding mode
// is set (without -frounding-math, g++ may move arithmetic across fesetround).
template <class T> inline T read_after_mode_change(T v) {
  volatile T kept = v;
  return kept;
}
// Runs f on the operands in the rounding mode given (FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD) and
// restores the thread's mode; the result is stored before the mode is restored.
template <class Operation, class... A> inline auto with_rounding(int mode, Operation operation, A... operands) {
  using Result = std::invoke_result_t<Operation, A...>;
  const int saved = std::fegetround();
  std::fesetround(mode);
  const volatile Result result = std::invoke(operation, read_after_mode_change(operands)...);
  std::fesetround(saved);
  return static_cast<Result>(result);
}
}  // namespace gpulab::emu

// NAME##_rn, _rz, _ru and _rd of a binary operation.
#define GPULAB_ROUNDED_OP(NAME, T, EXPR)                          \
  inline T NAME##_rn(T a, T b) { return EXPR; }                   \
  inline T NAME##_rz(T a, T b) {                                  \
    return gpulab::emu::with_rounding(                            \
        FE_TOWARDZERO, [](T a, T b) -> T { return EXPR; }, a, b); \
  }                                                               \
  inline T NAME##_ru(T a, T b) {                                  \
    return gpulab::emu::with_rounding(                            \
        FE_UPWARD, [](T a, T b) -> T { return EXPR; }, a, b);     \
  }                                                               \
  inline T NAME##_rd(T a, T b) {                                  \
    return gpulab::emu::with_rounding(                            \
        FE_DOWNWARD, [](T a, T b) -> T { return EXPR; }, a, b);   \
  }
GPULAB_ROUNDED_OP(__fadd, float, a + b)
GPULAB_ROUNDED_OP(__fsub, float, a - b)
GPULAB_ROUNDED_OP(__fmul, float, a* b)
GPULAB_ROUNDED_OP(__fdiv, float, a / b)
GPULAB_ROUNDED_OP(__dadd, double, a + b)
GPULAB_ROUNDED_OP(__dsub, double, a - b)
GPULAB_ROUNDED_OP(__dmul, double, a* b)
GPULAB_ROUNDED_OP(__ddiv, double, a / b)
#undef GPULAB_ROUNDED_OP
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline double __dsqrt_rn(double x) { return std::sqrt(x); }
inline double __drcp_rn(double x) { return 1.0 / x; }
// The other roundings of square roots, reciprocals and fused multiply-adds (interval arithmetic
// uses them), computed in the rounding mode asked for.
#define GPULAB_ROUNDED_UNARY(NAME, T, EXPR)               \
  inline T NAME##_rz(T x) {                               \
    return gpulab::emu::with_rounding(                    \
        FE_TOWARDZERO, [](T x) -> T { return EXPR; }, x); \
  }                                                       \
  inline T NAME##_ru(T x) {                               \
    return gpulab::emu::with_rounding(                    \
        FE_UPWARD, [](T x) -> T { return EXPR; }, x);     \
  }                                                       \
  inline T NAME##_rd(T x) {                               \
    return gpulab::emu::with_rounding(                    \
        FE_DOWNWARD, [](T x) -> T { return EXPR; }, x);   \
  }
GPULAB_ROUNDED_UNARY(__fsqrt, float, std::sqrt(x))
GPULAB_ROUNDED_UNARY(__dsqrt, double, std::sqrt(x))
GPULAB_ROUNDED_UNARY(__frcp, float, 1.0f / x)
GPULAB_ROUNDED_UNARY(__drcp, double, 1.0 / x)
#undef GPULAB_ROUNDED_UNARY
#define GPULAB_ROUNDED_FMA(NAME, T)                                                    \
  inline T NAME##_rz(T a, T b, T c) {                                                  \
    return gpulab::emu::with_rounding(                                                 \
        FE_TOWARDZERO, [](T a, T b, T c) -> T { return std::fma(a, b, c); }, a, b, c); \
  }                                                                                    \
  inline T NAME##_ru(T a, T b, T c) {                                                  \
    return gpulab::emu::with_rounding(                                                 \
        FE_UPWARD, [](T a, T b, T c) -> T { return std::fma(a, b, c); }, a, b, c);     \
  }                                                                                    \
  inline T NAME##_rd(T a, T b, T c) {                                                  \
    return gpulab::emu::with_rounding(                                                 \
        FE_DOWNWARD, [](T a, T b, T c) -> T { return std::fma(a, b, c); }, a, b, c);   \
  }
GPULAB_ROUNDED_FMA(__fmaf, float)
GPULAB_ROUNDED_FMA(__fma, double)
#undef GPULAB_ROUNDED_FMA

// Conversions: _rn rounds half to even, _rz truncates, _ru/_rd round up/down.
inline int __float2int_rn(float x) { return static_cast<int>(std::nearbyint(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(std::trunc(x)); }
inline int __float2int_ru(float x) { return static_cast<int>(std::ceil(x)); }
inline int __float2int_rd(float x) { return static_cast<int>(std::floor(x)); }
inline unsigned __float2uint_rn(float x) { return static_cast<unsigned>(std::nearbyint(x)); }
inline unsigned __float2uint_rz(float x) { return static_cast<unsigned>(std::trunc(x)); }
inline long long __float2ll_rn(float x) { return static_cast<long long>(std::nearbyint(x)); }
inline int __double2int_rn(double x) { return static_cast<int>(std::nearbyint(x)); }
inline int __double2int_rz(double x) { return static_cast<int>(std::trunc(x)); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline float __uint2float_rn(unsigned x) { return static_cast<float>(x); }
inline float __double2float_rn(double x) { return static_cast<float>(x); }

template <class To, class From> inline To gpulab_bit_cast(From v) {
  static_assert(sizeof(To) == sizeof(From));
  To out;
  std::memcpy(&out, &v, sizeof(To));
  return out;
}
inline int __float_as_int(float x) { return gpulab_bit_cast<int>(x); }
inline unsigned __float_as_uint(float x) { return gpulab_bit_cast<unsigned>(x); }
inline float __int_as_float(int x) { return gpulab_bit_cast<float>(x); }
inline float __uint_as_float(unsigned x) { return gpulab_bit_cast<float>(x); }
inline long long __double_as_longlong(double x) { return gpulab_bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) { return gpulab_bit_cast<double>(x); }

// Bit manipulation.
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
inline unsigned long long __brevll(unsigned long long x) {
  unsigned long long r = 0;
  for (int i = 0; i < 64; ++i) r |= ((x >> i) & 1ull) << (63 - i);
  return r;
}
inline int __mul24(int a, int b) { return (a << 8 >> 8) * (b << 8 >> 8); }
inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline unsigned __umulhi(unsigned a, unsigned b) {
  return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32);
}
inline long long __mul64hi(long long a, long long b) {
  return static_cast<long long>((static_cast<__int128>(a) * b) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
inline unsigned __sad(int x, int y, unsigned z) { return z + static_cast<unsigned>(x > y ? x - y : y - x); }
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  const unsigned long long bytes = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) r |= static_cast<unsigned>((bytes >> (8 * ((s >> (4 * i)) & 7u))) & 0xffu) << (8 * i);
  return r;
}
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>((v << (shift & 31u)) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>(v >> (shift & 31u));
}

// Cache-hinted loads and stores are plain memory accesses here.
template <class T> inline T __ldg(const T* p) { return *p; }
template <class T> inline T __ldcg(const T* p) { return *p; }
template <class T> inline T __ldca(const T* p) { return *p; }
template <class T> inline T __ldcs(const T* p) { return *p; }
template <class T> inline T __ldlu(const T* p) { return *p; }
template <class T> inline T __ldcv(const T* p) { return *p; }
template <class T> inline void __stcg(T* p, T v) { *p = v; }
template <class T> inline void __stcs(T* p, T v) { *p = v; }
template <class T> inline void __stwb(T* p, T v) { *p = v; }
template <class T> inline void __stwt(T* p, T v) { *p = v; }

namespace gpulab::emu {
long long device_clock();
void device_trap(const char* file, int line);
void device_nanosleep(unsigned ns);
}  // namespace gpulab::emu
inline long long clock64() { return gpulab::emu::device_clock(); }
inline void __nanosleep(unsigned ns) { gpulab::emu::device_nanosleep(ns); }
inline void __trap(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  gpulab::emu::device_trap(file, line);
}
