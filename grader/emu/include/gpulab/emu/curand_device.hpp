// cuRAND's device API, as course programs use it (curand_init, curand, curand_uniform,
// curand_normal, ...), for the two generators programs pick: XORWOW (curandState, cuRAND's
// default) and Philox4_32_10. The generators follow cuRAND's documented algorithms: XORWOW's
// xorshift with its Weyl sequence, seeded as cuRAND seeds it, subsequence s starting 2^67 * s
// numbers in and an offset skipping numbers one by one; Philox4x32-10 with a counter whose high
// half is the subsequence. 32-bit draws become floats as cuRAND's (x * 2^-32 + 2^-33, contracted to
// one fused multiply-add as nvcc compiles it) and normals come in Box-Muller pairs. A normal's last
// bits may differ from a GPU's, whose __sincosf is an approximation (the emulator's is exact).
// Not provided: MRG32k3a, the Sobol generators, curand_poisson and curand_discrete.
#pragma once
#include <cmath>
#include <cstdint>

#include "gpulab/emu/vector_types.hpp"

namespace gpulab::emu::curand {
// Advances XORWOW's xorshift words by n numbers, or by n subsequences of 2^67 numbers each
// (curand_xorwow.cpp: powers of the generator's step as a matrix over GF(2)).
void xorwow_skip(unsigned int v[5], unsigned long long n);
void xorwow_skip_sequences(unsigned int v[5], unsigned long long n);

constexpr float k2pow32Inv = 2.3283064e-10f;
constexpr float k2pow32Inv2Pi = 2.3283064e-10f * 6.2831855f;
constexpr double k2pow32InvDouble = 2.3283064365386963e-10;
constexpr double k2pow53InvDouble = 1.1102230246251565e-16;

inline float uniform(unsigned int x) { return std::fmaf(static_cast<float>(x), k2pow32Inv, k2pow32Inv / 2.0f); }
inline double uniform_double(unsigned int x, unsigned int y) {
  const unsigned long long z = static_cast<unsigned long long>(x) ^ (static_cast<unsigned long long>(y) << (53 - 32));
  return std::fma(static_cast<double>(z), k2pow53InvDouble, k2pow53InvDouble / 2.0);
}
inline float2 box_muller(unsigned int x, unsigned int y) {
  const float u = uniform(x);
  const float v = std::fmaf(static_cast<float>(y), k2pow32Inv2Pi, k2pow32Inv2Pi / 2.0f);
  const float s = std::sqrt(-2.0f * std::log(u));
  return {std::sin(v) * s, std::cos(v) * s};
}
inline double2 box_muller_double(unsigned int x0, unsigned int x1, unsigned int y0, unsigned int y1) {
  const double u = uniform_double(x0, x1);
  const double v = uniform_double(y0, y1) * 6.283185307179586;
  const double s = std::sqrt(-2.0 * std::log(u));
  return {std::sin(v) * s, std::cos(v) * s};
}
}  // namespace gpulab::emu::curand

// ---- XORWOW: curandState, curandStateXORWOW_t ----
struct curandStateXORWOW {
  unsigned int d;
  unsigned int v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef curandStateXORWOW curandStateXORWOW_t;
typedef curandStateXORWOW curandState_t;
typedef curandStateXORWOW curandState;

inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                        curandStateXORWOW_t* state) {
  // The seed's two halves, salted and mixed, as cuRAND seeds the generator.
  const unsigned int s0 = static_cast<unsigned int>(seed) ^ 0xaad26b49u;
  const unsigned int s1 = static_cast<unsigned int>(seed >> 32) ^ 0xf7dcefddu;
  const unsigned int t0 = 1099087573u * s0;
  const unsigned int t1 = 2591861531u * s1;
  state->d = 6615241u + t1 + t0;
  state->v[0] = 123456789u + t0;
  state->v[1] = 362436069u ^ t0;
  state->v[2] = 521288629u + t1;
  state->v[3] = 88675123u ^ t1;
  state->v[4] = 5783321u + t0;
  gpulab::emu::curand::xorwow_skip_sequences(state->v, subsequence);
  gpulab::emu::curand::xorwow_skip(state->v, offset);
  state->d += 362437u * static_cast<unsigned int>(offset);
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.0f;
  state->boxmuller_extra_double = 0.0;
}

inline unsigned int curand(curandStateXORWOW_t* state) {
  const unsigned int t = state->v[0] ^ (state->v[0] >> 2);
  state->v[0] = state->v[1];
  state->v[1] = state->v[2];
  state->v[2] = state->v[3];
  state->v[3] = state->v[4];
  state->v[4] = (state->v[4] ^ (state->v[4] << 4)) ^ (t ^ (t << 1));
  state->d += 362437u;
  return state->v[4] + state->d;
}

inline void skipahead(unsigned long long n, curandStateXORWOW_t* state) {
  gpulab::emu::curand::xorwow_skip(state->v, n);
  state->d += 362437u * static_cast<unsigned int>(n);
}
inline void skipahead_sequence(unsigned long long n, curandStateXORWOW_t* state) {
  gpulab::emu::curand::xorwow_skip_sequences(state->v, n);
}

// ---- Philox4_32_10: curandStatePhilox4_32_10_t ----
struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};
typedef curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

namespace gpulab::emu::curand {
// Philox4x32 with 10 rounds (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3").
inline uint4 philox4x32_10(uint4 c, uint2 k) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k.x += 0x9E3779B9u;
      k.y += 0xBB67AE85u;
    }
    const unsigned long long p0 = 0xD2511F53ull * c.x, p1 = 0xCD9E8D57ull * c.z;
    const unsigned int hi0 = static_cast<unsigned int>(p0 >> 32), lo0 = static_cast<unsigned int>(p0);
    const unsigned int hi1 = static_cast<unsigned int>(p1 >> 32), lo1 = static_cast<unsigned int>(p1);
    c = {hi1 ^ c.y ^ k.x, lo1, hi0 ^ c.w ^ k.y, lo0};
  }
  return c;
}
// The 128-bit counter plus n.
inline void philox_add(uint4& c, unsigned long long n) {
  const unsigned long long low = static_cast<unsigned long long>(c.x) | (static_cast<unsigned long long>(c.y) << 32);
  const unsigned long long sum = low + n;
  c.x = static_cast<unsigned int>(sum);
  c.y = static_cast<unsigned int>(sum >> 32);
  if (sum < low && ++c.z == 0) ++c.w;
}
}  // namespace gpulab::emu::curand

inline void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  const unsigned int lo = static_cast<unsigned int>(n);
  unsigned int hi = static_cast<unsigned int>(n >> 32);
  state->ctr.z += lo;
  if (state->ctr.z < lo) ++hi;
  state->ctr.w += hi;
  state->output = gpulab::emu::curand::philox4x32_10(state->ctr, state->key);
}
inline void skipahead(unsigned long long n, curandStatePhilox4_32_10_t* state) {
  state->STATE += static_cast<unsigned int>(n & 3);
  n /= 4;
  if (state->STATE > 3) {
    n += 1;
    state->STATE -= 4;
  }
  gpulab::emu::curand::philox_add(state->ctr, n);
  state->output = gpulab::emu::curand::philox4x32_10(state->ctr, state->key);
}

inline void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                        curandStatePhilox4_32_10_t* state) {
  state->ctr = {0, 0, 0, 0};
  state->key = {static_cast<unsigned int>(seed), static_cast<unsigned int>(seed >> 32)};
  state->STATE = 0;
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.0f;
  state->boxmuller_extra_double = 0.0;
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
}

inline unsigned int curand(curandStatePhilox4_32_10_t* state) {
  const uint4& o = state->output;
  const unsigned int value = state->STATE == 0 ? o.x : state->STATE == 1 ? o.y : state->STATE == 2 ? o.z : o.w;
  if (++state->STATE == 4) {
    gpulab::emu::curand::philox_add(state->ctr, 1);
    state->output = gpulab::emu::curand::philox4x32_10(state->ctr, state->key);
    state->STATE = 0;
  }
  return value;
}

inline uint4 curand4(curandStatePhilox4_32_10_t* state) {
  const uint4 was = state->output;
  gpulab::emu::curand::philox_add(state->ctr, 1);
  state->output = gpulab::emu::curand::philox4x32_10(state->ctr, state->key);
  const uint4& now = state->output;
  switch (state->STATE) {
    case 1: return {was.y, was.z, was.w, now.x};
    case 2: return {was.z, was.w, now.x, now.y};
    case 3: return {was.w, now.x, now.y, now.z};
    default: return was;
  }
}

// ---- Distributions, for either generator ----
template <class State> inline float curand_uniform(State* state) { return gpulab::emu::curand::uniform(curand(state)); }
template <class State> inline double curand_uniform_double(State* state) {
  const unsigned int x = curand(state);
  const unsigned int y = curand(state);
  return gpulab::emu::curand::uniform_double(x, y);
}
inline float4 curand_uniform4(curandStatePhilox4_32_10_t* state) {
  const uint4 r = curand4(state);
  using gpulab::emu::curand::uniform;
  return {uniform(r.x), uniform(r.y), uniform(r.z), uniform(r.w)};
}

template <class State> inline float curand_normal(State* state) {
  if (state->boxmuller_flag != 1) {
    const unsigned int x = curand(state);
    const unsigned int y = curand(state);
    const float2 v = gpulab::emu::curand::box_muller(x, y);
    state->boxmuller_extra = v.y;
    state->boxmuller_flag = 1;
    return v.x;
  }
  state->boxmuller_flag = 0;
  return state->boxmuller_extra;
}
template <class State> inline float2 curand_normal2(State* state) {
  const unsigned int x = curand(state);
  const unsigned int y = curand(state);
  return gpulab::emu::curand::box_muller(x, y);
}
inline float4 curand_normal4(curandStatePhilox4_32_10_t* state) {
  const uint4 r = curand4(state);
  const float2 a = gpulab::emu::curand::box_muller(r.x, r.y);
  const float2 b = gpulab::emu::curand::box_muller(r.z, r.w);
  return {a.x, a.y, b.x, b.y};
}
template <class State> inline double curand_normal_double(State* state) {
  if (state->boxmuller_flag_double != 1) {
    const unsigned int x0 = curand(state), x1 = curand(state), y0 = curand(state), y1 = curand(state);
    const double2 v = gpulab::emu::curand::box_muller_double(x0, x1, y0, y1);
    state->boxmuller_extra_double = v.y;
    state->boxmuller_flag_double = 1;
    return v.x;
  }
  state->boxmuller_flag_double = 0;
  return state->boxmuller_extra_double;
}
template <class State> inline float curand_log_normal(State* state, float mean, float stddev) {
  return std::exp(mean + stddev * curand_normal(state));
}
template <class State> inline double curand_log_normal_double(State* state, double mean, double stddev) {
  return std::exp(mean + stddev * curand_normal_double(state));
}
