// Half precision (cuda_fp16.h): __half and __half2 with CUDA's conversions,
// arithmetic, comparisons and math functions. Values are stored as IEEE
// binary16 bits; arithmetic is done in float (double for fma) and rounded back
// to nearest-even. For + - * / that is exactly CUDA's correctly rounded result:
// float's 24-bit significand is more than twice half's 11 bits plus 2, so the
// double rounding cannot change the answer. NaN results are CUDA's canonical
// NaN (0x7fff), as the GPU's conversion gives.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>

#include "gpulab/emu/vector_types.hpp"

namespace gpulab::emu {
inline unsigned short float_to_half_bits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const unsigned short sign = static_cast<unsigned short>((x >> 16) & 0x8000u);
  const uint32_t a = x & 0x7fffffffu;
  if (a > 0x7f800000u) return 0x7fffu;          // NaN
  if (a >= 0x477ff000u) return sign | 0x7c00u;  // 65520 and above round to infinity
  if (a <= 0x33000000u) return sign;            // 2^-25 and below round to zero
  const uint32_t e = a >> 23;
  uint32_t q, rem, halfway;
  if (e < 113) {  // a half subnormal: the value in units of 2^-24
    const uint32_t m = (a & 0x7fffffu) | 0x800000u;
    const uint32_t s = 126 - e;
    q = m >> s;
    rem = m & ((1u << s) - 1);
    halfway = 1u << (s - 1);
  } else {
    q = ((e - 112) << 10) | ((a & 0x7fffffu) >> 13);
    rem = a & 0x1fffu;
    halfway = 0x1000u;
  }
  if (rem > halfway || (rem == halfway && (q & 1u))) ++q;  // a carry moves into the exponent, as it should
  return static_cast<unsigned short>(sign | q);
}

inline float half_bits_to_float(unsigned short h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
  uint32_t x;
  if (e == 0x1f) {
    x = sign | 0x7f800000u | (m << 13);
  } else if (e != 0) {
    x = sign | ((e + 112) << 23) | (m << 13);
  } else {
    const float v = std::ldexp(static_cast<float>(m), -24);  // zero or subnormal: exact in float
    return sign ? -v : v;
  }
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}
}  // namespace gpulab::emu

struct __half_raw {
  unsigned short x;
};
struct __half2_raw {
  unsigned short x;
  unsigned short y;
};

struct __half {
  __half() = default;
  constexpr __half(const __half_raw& r) : __x(r.x) {}
  __half(float f) : __x(gpulab::emu::float_to_half_bits(f)) {}
  __half(double d) : __x(gpulab::emu::float_to_half_bits(static_cast<float>(d))) {}
  __half(int i) : __half(static_cast<float>(i)) {}
  __half(unsigned int i) : __half(static_cast<float>(i)) {}
  __half(long long i) : __half(static_cast<float>(i)) {}
  __half(unsigned long long i) : __half(static_cast<float>(i)) {}
  __half(short i) : __half(static_cast<float>(i)) {}
  __half(unsigned short i) : __half(static_cast<float>(i)) {}
  __half& operator=(const __half_raw& r) {
    __x = r.x;
    return *this;
  }
  operator __half_raw() const { return __half_raw{__x}; }
  operator float() const { return gpulab::emu::half_bits_to_float(__x); }

 protected:
  unsigned short __x;
};

struct alignas(4) __half2 {
  __half x;
  __half y;
  __half2() = default;
  constexpr __half2(const __half& a, const __half& b) : x(a), y(b) {}
  __half2(const __half2_raw& r) : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
  operator __half2_raw() const { return __half2_raw{static_cast<__half_raw>(x).x, static_cast<__half_raw>(y).x}; }
};

typedef __half half;
typedef __half2 half2;
typedef __half __nv_half;
typedef __half2 __nv_half2;

// Conversions. __float2half rounds to nearest even; _rz/_rd/_ru round as named.
inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline float __half2float(__half h) { return static_cast<float>(h); }
inline __half __double2half(double d) { return __half(d); }
inline __half2 __float2half2_rn(float f) { return __half2(__half(f), __half(f)); }
inline __half2 __floats2half2_rn(float a, float b) { return __half2(__half(a), __half(b)); }
inline __half2 __float22half2_rn(float2 f) { return __half2(__half(f.x), __half(f.y)); }
inline float2 __half22float2(__half2 h) { return float2{static_cast<float>(h.x), static_cast<float>(h.y)}; }
inline float __low2float(__half2 h) { return static_cast<float>(h.x); }
inline float __high2float(__half2 h) { return static_cast<float>(h.y); }
inline __half __low2half(__half2 h) { return h.x; }
inline __half __high2half(__half2 h) { return h.y; }
inline __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
inline __half2 __half2half2(__half a) { return __half2(a, a); }
inline __half2 make_half2(__half a, __half b) { return __half2(a, b); }
inline __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
inline __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
inline __half2 __lowhigh2highlow(__half2 a) { return __half2(a.y, a.x); }
inline __half __int2half_rn(int i) { return __half(static_cast<float>(i)); }
inline __half __uint2half_rn(unsigned i) { return __half(static_cast<float>(i)); }
inline int __half2int_rn(__half h) { return static_cast<int>(std::nearbyint(static_cast<float>(h))); }
inline int __half2int_rz(__half h) { return static_cast<int>(std::trunc(static_cast<float>(h))); }
inline int __half2int_rd(__half h) { return static_cast<int>(std::floor(static_cast<float>(h))); }
inline int __half2int_ru(__half h) { return static_cast<int>(std::ceil(static_cast<float>(h))); }
inline unsigned short __half_as_ushort(__half h) { return static_cast<__half_raw>(h).x; }
inline short __half_as_short(__half h) { return static_cast<short>(static_cast<__half_raw>(h).x); }
inline __half __ushort_as_half(unsigned short u) { return __half(__half_raw{u}); }
inline __half __short_as_half(short s) { return __half(__half_raw{static_cast<unsigned short>(s)}); }

// Arithmetic and comparisons (the h-prefixed intrinsics and the operators).
namespace gpulab::emu {
inline float hf(__half h) { return static_cast<float>(h); }
template <class F> inline __half2 lanes(__half2 a, __half2 b, F f) { return __half2(f(a.x, b.x), f(a.y, b.y)); }
}  // namespace gpulab::emu
inline __half __hadd(__half a, __half b) { return __half(gpulab::emu::hf(a) + gpulab::emu::hf(b)); }
inline __half __hsub(__half a, __half b) { return __half(gpulab::emu::hf(a) - gpulab::emu::hf(b)); }
inline __half __hmul(__half a, __half b) { return __half(gpulab::emu::hf(a) * gpulab::emu::hf(b)); }
inline __half __hdiv(__half a, __half b) { return __half(gpulab::emu::hf(a) / gpulab::emu::hf(b)); }
inline __half __hfma(__half a, __half b, __half c) {
  return __half(static_cast<float>(std::fma(static_cast<double>(a), static_cast<double>(b), static_cast<double>(c))));
}
inline __half __hneg(__half a) { return __ushort_as_half(__half_as_ushort(a) ^ 0x8000u); }
inline __half __habs(__half a) { return __ushort_as_half(__half_as_ushort(a) & 0x7fffu); }
inline __half __hadd_sat(__half a, __half b) {
  const float r = static_cast<float>(__hadd(a, b));
  return __half(r < 0.0f ? 0.0f : (r > 1.0f ? 1.0f : r));
}
inline bool __hisnan(__half a) { return (__half_as_ushort(a) & 0x7fffu) > 0x7c00u; }
inline int __hisinf(__half a) {
  const unsigned short u = __half_as_ushort(a);
  return u == 0x7c00u ? 1 : (u == 0xfc00u ? -1 : 0);
}
inline bool __heq(__half a, __half b) { return gpulab::emu::hf(a) == gpulab::emu::hf(b); }
inline bool __hne(__half a, __half b) {
  return !__hisnan(a) && !__hisnan(b) && gpulab::emu::hf(a) != gpulab::emu::hf(b);
}
inline bool __hlt(__half a, __half b) { return gpulab::emu::hf(a) < gpulab::emu::hf(b); }
inline bool __hle(__half a, __half b) { return gpulab::emu::hf(a) <= gpulab::emu::hf(b); }
inline bool __hgt(__half a, __half b) { return gpulab::emu::hf(a) > gpulab::emu::hf(b); }
inline bool __hge(__half a, __half b) { return gpulab::emu::hf(a) >= gpulab::emu::hf(b); }
// __hmax/__hmin return the other operand when one is NaN (and NaN when both are).
inline __half __hmax(__half a, __half b) { return __half(std::fmax(gpulab::emu::hf(a), gpulab::emu::hf(b))); }
inline __half __hmin(__half a, __half b) { return __half(std::fmin(gpulab::emu::hf(a), gpulab::emu::hf(b))); }

inline __half2 __hadd2(__half2 a, __half2 b) { return gpulab::emu::lanes(a, b, __hadd); }
inline __half2 __hsub2(__half2 a, __half2 b) { return gpulab::emu::lanes(a, b, __hsub); }
inline __half2 __hmul2(__half2 a, __half2 b) { return gpulab::emu::lanes(a, b, __hmul); }
inline __half2 __h2div(__half2 a, __half2 b) { return gpulab::emu::lanes(a, b, __hdiv); }
inline __half2 __hmax2(__half2 a, __half2 b) { return gpulab::emu::lanes(a, b, __hmax); }
inline __half2 __hmin2(__half2 a, __half2 b) { return gpulab::emu::lanes(a, b, __hmin); }
inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
inline __half2 __hneg2(__half2 a) { return __half2(__hneg(a.x), __hneg(a.y)); }
inline __half2 __habs2(__half2 a) { return __half2(__habs(a.x), __habs(a.y)); }

inline __half operator+(const __half& a, const __half& b) { return __hadd(a, b); }
inline __half operator-(const __half& a, const __half& b) { return __hsub(a, b); }
inline __half operator*(const __half& a, const __half& b) { return __hmul(a, b); }
inline __half operator/(const __half& a, const __half& b) { return __hdiv(a, b); }
inline __half operator-(const __half& a) { return __hneg(a); }
inline __half operator+(const __half& a) { return a; }
inline __half& operator+=(__half& a, const __half& b) { return a = __hadd(a, b); }
inline __half& operator-=(__half& a, const __half& b) { return a = __hsub(a, b); }
inline __half& operator*=(__half& a, const __half& b) { return a = __hmul(a, b); }
inline __half& operator/=(__half& a, const __half& b) { return a = __hdiv(a, b); }
inline bool operator==(const __half& a, const __half& b) { return __heq(a, b); }
inline bool operator!=(const __half& a, const __half& b) { return __hne(a, b); }
inline bool operator<(const __half& a, const __half& b) { return __hlt(a, b); }
inline bool operator<=(const __half& a, const __half& b) { return __hle(a, b); }
inline bool operator>(const __half& a, const __half& b) { return __hgt(a, b); }
inline bool operator>=(const __half& a, const __half& b) { return __hge(a, b); }
inline __half2 operator+(const __half2& a, const __half2& b) { return __hadd2(a, b); }
inline __half2 operator-(const __half2& a, const __half2& b) { return __hsub2(a, b); }
inline __half2 operator*(const __half2& a, const __half2& b) { return __hmul2(a, b); }
inline __half2 operator/(const __half2& a, const __half2& b) { return __h2div(a, b); }
inline __half2& operator+=(__half2& a, const __half2& b) { return a = __hadd2(a, b); }
inline __half2& operator-=(__half2& a, const __half2& b) { return a = __hsub2(a, b); }
inline __half2& operator*=(__half2& a, const __half2& b) { return a = __hmul2(a, b); }
inline __half2 operator-(const __half2& a) { return __hneg2(a); }
inline bool operator==(const __half2& a, const __half2& b) { return a.x == b.x && a.y == b.y; }
inline bool operator!=(const __half2& a, const __half2& b) { return a.x != b.x && a.y != b.y; }

// Math functions, computed in float and rounded to half.
#define GPULAB_HALF_MATH(NAME, EXPR)       \
  inline __half NAME(__half a) {           \
    const float x = static_cast<float>(a); \
    return __half(EXPR);                   \
  }                                        \
  inline __half2 NAME##2(__half2 a) { return __half2(NAME(a.x), NAME(a.y)); }
GPULAB_HALF_MATH(hsqrt, std::sqrt(x))
GPULAB_HALF_MATH(hrsqrt, 1.0f / std::sqrt(x))
GPULAB_HALF_MATH(hrcp, 1.0f / x)
GPULAB_HALF_MATH(hexp, std::exp(x))
GPULAB_HALF_MATH(hexp2, std::exp2(x))
GPULAB_HALF_MATH(hlog, std::log(x))
GPULAB_HALF_MATH(hlog2, std::log2(x))
GPULAB_HALF_MATH(hlog10, std::log10(x))
GPULAB_HALF_MATH(hsin, std::sin(x))
GPULAB_HALF_MATH(hcos, std::cos(x))
GPULAB_HALF_MATH(hfloor, std::floor(x))
GPULAB_HALF_MATH(hceil, std::ceil(x))
GPULAB_HALF_MATH(htrunc, std::trunc(x))
GPULAB_HALF_MATH(hrint, std::nearbyint(x))
#undef GPULAB_HALF_MATH
