// CUDA atomic functions on global and shared memory, as real hardware atomics
// (blocks run on several cores at once). Float and double additions use a
// compare-and-swap loop, as CUDA's own fallback does. On the running block's
// shared memory no locked instruction is needed: only its worker thread touches
// it (a block runs on one worker, and its GPU threads switch only inside runtime
// calls), so there an atomic is a plain read-modify-write, several times
// cheaper (a histogram privatized in shared memory is mostly atomics). The
// checking build keeps real atomics everywhere: its race check tells them apart.
#pragma once
#include <atomic>
#include <cstddef>
#include <type_traits>

#include "gpulab/emu/checking_build.hpp"
#include "gpulab/emu/execution_context.hpp"

namespace gpulab::emu {
inline bool block_private(const void* p) {
#ifdef GPULAB_EMU_CHECKING_BUILD
  (void)p;
  return false;
#else
  const BlockContext* b = gpulab_emu_block;
  return b && static_cast<size_t>(static_cast<const unsigned char*>(p) - b->dynamic_shared) < b->shared_bytes;
#endif
}
// old = *a; *a = update(old); return old, without a locked instruction (see above).
template <class T, class F> inline T private_update(T* a, F update) {
  const T old = *a;
  *a = update(old);
  return old;
}
template <class T> inline T wrapping_add(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
}
template <class T> inline T wrapping_sub(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) - static_cast<U>(b));
}
template <class T> inline T atomic_fetch_add_cas(T* address, T value) {
  std::atomic_ref<T> ref(*address);
  T old = ref.load(std::memory_order_relaxed);
  while (!ref.compare_exchange_weak(old, old + value, std::memory_order_relaxed)) {}
  return old;
}
template <class T, class F> inline T atomic_update(T* address, F update) {
  std::atomic_ref<T> ref(*address);
  T old = ref.load(std::memory_order_relaxed);
  while (!ref.compare_exchange_weak(old, update(old), std::memory_order_relaxed)) {}
  return old;
}
}  // namespace gpulab::emu

#define GPULAB_INTEGER_ATOMICS(T)                                                                                \
  inline T atomicAdd(T* a, T v) {                                                                                \
    if (gpulab::emu::block_private(a))                                                                           \
      return gpulab::emu::private_update(a, [v](T old) { return gpulab::emu::wrapping_add(old, v); });           \
    return __atomic_fetch_add(a, v, __ATOMIC_RELAXED);                                                           \
  }                                                                                                              \
  inline T atomicSub(T* a, T v) {                                                                                \
    if (gpulab::emu::block_private(a))                                                                           \
      return gpulab::emu::private_update(a, [v](T old) { return gpulab::emu::wrapping_sub(old, v); });           \
    return __atomic_fetch_sub(a, v, __ATOMIC_RELAXED);                                                           \
  }                                                                                                              \
  inline T atomicExch(T* a, T v) {                                                                               \
    if (gpulab::emu::block_private(a)) return gpulab::emu::private_update(a, [v](T) { return v; });              \
    return __atomic_exchange_n(a, v, __ATOMIC_RELAXED);                                                          \
  }                                                                                                              \
  inline T atomicMin(T* a, T v) {                                                                                \
    const auto f = [v](T old) { return old < v ? old : v; };                                                     \
    return gpulab::emu::block_private(a) ? gpulab::emu::private_update(a, f) : gpulab::emu::atomic_update(a, f); \
  }                                                                                                              \
  inline T atomicMax(T* a, T v) {                                                                                \
    const auto f = [v](T old) { return old > v ? old : v; };                                                     \
    return gpulab::emu::block_private(a) ? gpulab::emu::private_update(a, f) : gpulab::emu::atomic_update(a, f); \
  }                                                                                                              \
  inline T atomicAnd(T* a, T v) {                                                                                \
    if (gpulab::emu::block_private(a)) return gpulab::emu::private_update(a, [v](T old) { return old & v; });    \
    return __atomic_fetch_and(a, v, __ATOMIC_RELAXED);                                                           \
  }                                                                                                              \
  inline T atomicOr(T* a, T v) {                                                                                 \
    if (gpulab::emu::block_private(a)) return gpulab::emu::private_update(a, [v](T old) { return old | v; });    \
    return __atomic_fetch_or(a, v, __ATOMIC_RELAXED);                                                            \
  }                                                                                                              \
  inline T atomicXor(T* a, T v) {                                                                                \
    if (gpulab::emu::block_private(a)) return gpulab::emu::private_update(a, [v](T old) { return old ^ v; });    \
    return __atomic_fetch_xor(a, v, __ATOMIC_RELAXED);                                                           \
  }                                                                                                              \
  inline T atomicCAS(T* a, T compare, T v) {                                                                     \
    if (gpulab::emu::block_private(a))                                                                           \
      return gpulab::emu::private_update(a, [compare, v](T old) { return old == compare ? v : old; });           \
    __atomic_compare_exchange_n(a, &compare, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);                      \
    return compare;                                                                                              \
  }

GPULAB_INTEGER_ATOMICS(int)
GPULAB_INTEGER_ATOMICS(unsigned int)
GPULAB_INTEGER_ATOMICS(unsigned long long)
GPULAB_INTEGER_ATOMICS(long long)
#undef GPULAB_INTEGER_ATOMICS

inline float atomicAdd(float* a, float v) {
  if (gpulab::emu::block_private(a)) return gpulab::emu::private_update(a, [v](float old) { return old + v; });
  return gpulab::emu::atomic_fetch_add_cas(a, v);
}
inline double atomicAdd(double* a, double v) {
  if (gpulab::emu::block_private(a)) return gpulab::emu::private_update(a, [v](double old) { return old + v; });
  return gpulab::emu::atomic_fetch_add_cas(a, v);
}
inline float atomicExch(float* a, float v) { return std::atomic_ref<float>(*a).exchange(v, std::memory_order_relaxed); }
inline float atomicMin(float* a, float v) {
  return gpulab::emu::atomic_update(a, [v](float old) { return old < v ? old : v; });
}
inline float atomicMax(float* a, float v) {
  return gpulab::emu::atomic_update(a, [v](float old) { return old > v ? old : v; });
}
// ((old >= limit) ? 0 : old + 1), and ((old == 0 || old > limit) ? limit : old - 1), as CUDA defines them.
inline unsigned int atomicInc(unsigned int* a, unsigned int limit) {
  const auto f = [limit](unsigned int old) { return old >= limit ? 0u : old + 1u; };
  return gpulab::emu::block_private(a) ? gpulab::emu::private_update(a, f) : gpulab::emu::atomic_update(a, f);
}
inline unsigned int atomicDec(unsigned int* a, unsigned int limit) {
  const auto f = [limit](unsigned int old) { return (old == 0u || old > limit) ? limit : old - 1u; };
  return gpulab::emu::block_private(a) ? gpulab::emu::private_update(a, f) : gpulab::emu::atomic_update(a, f);
}
inline unsigned short atomicCAS(unsigned short* a, unsigned short compare, unsigned short v) {
  __atomic_compare_exchange_n(a, &compare, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  return compare;
}

// Scope-qualified variants (block: the thread's block; system: the host and other devices too)
// behave like the device-wide ones here, where every atomic is a real hardware atomic on host memory.
#define atomicAdd_block atomicAdd
#define atomicAdd_system atomicAdd
#define atomicSub_system atomicSub
#define atomicExch_system atomicExch
#define atomicMin_system atomicMin
#define atomicMax_system atomicMax
#define atomicCAS_system atomicCAS
#define atomicOr_system atomicOr
#define atomicAnd_system atomicAnd
#define atomicXor_system atomicXor
#define atomicInc_system atomicInc
#define atomicDec_system atomicDec
#define atomicSub_block atomicSub
#define atomicExch_block atomicExch
#define atomicMin_block atomicMin
#define atomicMax_block atomicMax
#define atomicCAS_block atomicCAS
#define atomicOr_block atomicOr
#define atomicAnd_block atomicAnd
#define atomicXor_block atomicXor
#define atomicInc_block atomicInc
#define atomicDec_block atomicDec
