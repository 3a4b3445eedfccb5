// CUDA atomic functions on global and shared memory, as real hardware atomics
// (blocks run on several cores at once). Float and double additions use a
// compare-and-swap loop, as CUDA's own fallback does.
#pragma once
#include <atomic>

namespace gpulab::emu {
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

#define GPULAB_INTEGER_ATOMICS(T)                                                           \
  inline T atomicAdd(T* a, T v) { return __atomic_fetch_add(a, v, __ATOMIC_RELAXED); }      \
  inline T atomicSub(T* a, T v) { return __atomic_fetch_sub(a, v, __ATOMIC_RELAXED); }      \
  inline T atomicExch(T* a, T v) { return __atomic_exchange_n(a, v, __ATOMIC_RELAXED); }    \
  inline T atomicMin(T* a, T v) {                                                           \
    return gpulab::emu::atomic_update(a, [v](T old) { return old < v ? old : v; });         \
  }                                                                                         \
  inline T atomicMax(T* a, T v) {                                                           \
    return gpulab::emu::atomic_update(a, [v](T old) { return old > v ? old : v; });         \
  }                                                                                         \
  inline T atomicAnd(T* a, T v) { return __atomic_fetch_and(a, v, __ATOMIC_RELAXED); }      \
  inline T atomicOr(T* a, T v) { return __atomic_fetch_or(a, v, __ATOMIC_RELAXED); }        \
  inline T atomicXor(T* a, T v) { return __atomic_fetch_xor(a, v, __ATOMIC_RELAXED); }      \
  inline T atomicCAS(T* a, T compare, T v) {                                                \
    __atomic_compare_exchange_n(a, &compare, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED); \
    return compare;                                                                         \
  }

GPULAB_INTEGER_ATOMICS(int)
GPULAB_INTEGER_ATOMICS(unsigned int)
GPULAB_INTEGER_ATOMICS(unsigned long long)
GPULAB_INTEGER_ATOMICS(long long)
#undef GPULAB_INTEGER_ATOMICS

inline float atomicAdd(float* a, float v) { return gpulab::emu::atomic_fetch_add_cas(a, v); }
inline double atomicAdd(double* a, double v) { return gpulab::emu::atomic_fetch_add_cas(a, v); }
inline float atomicExch(float* a, float v) { return std::atomic_ref<float>(*a).exchange(v, std::memory_order_relaxed); }
inline float atomicMin(float* a, float v) {
  return gpulab::emu::atomic_update(a, [v](float old) { return old < v ? old : v; });
}
inline float atomicMax(float* a, float v) {
  return gpulab::emu::atomic_update(a, [v](float old) { return old > v ? old : v; });
}
// ((old >= limit) ? 0 : old + 1), and ((old == 0 || old > limit) ? limit : old - 1), as CUDA defines them.
inline unsigned int atomicInc(unsigned int* a, unsigned int limit) {
  return gpulab::emu::atomic_update(a, [limit](unsigned int old) { return old >= limit ? 0u : old + 1u; });
}
inline unsigned int atomicDec(unsigned int* a, unsigned int limit) {
  return gpulab::emu::atomic_update(
      a, [limit](unsigned int old) { return (old == 0u || old > limit) ? limit : old - 1u; });
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
