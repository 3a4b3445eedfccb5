// The __tsan_* functions that gcc's and clang's -fsanitize=thread instrumentation calls
// (gcc 12 and clang 14: found with `nm -u` on a translation unit using every access width,
// volatile, std::atomic_ref of 1 to 16 bytes, __sync/__atomic builtins, fences,
// struct copies, unaligned loads through memcpy and virtual calls), defined here instead of in
// libtsan. Clang calls the unaligned_* and vptr_read hooks where gcc does not, and from clang 17
// on calls __tsan_memcpy/memset/memmove for the copies it makes (clang 14 calls plain memcpy,
// which the checker does not see: docs/profile-agreement.md).
// Plain and volatile accesses are only recorded (the instrumented code performs
// them); atomics are performed here and then recorded. Outside a checked block
// (host code, or the checker itself running) nothing is recorded.
#include <cstddef>
#include <cstdint>

#include "access.hpp"
#include "check_modes.hpp"
#include "profile_entry.hpp"
#include "race_detector.hpp"
#include "runtime_events.hpp"
#include "session.hpp"

using gpulab::emu::check::kAtomic;
using gpulab::emu::check::kRead;
using gpulab::emu::check::kUpdate;
using gpulab::emu::check::kVolatile;
using gpulab::emu::check::kWrite;
using gpulab::emu::check::tl_active;

namespace {

inline void record(const volatile void* address, size_t size, uint8_t flags, void* pc) {
  if (!tl_active) return;
  tl_active = false;
  const auto a = reinterpret_cast<uintptr_t>(address);
  const auto code = reinterpret_cast<uintptr_t>(pc);
  if (gpulab::emu::check::modes.race) gpulab::emu::check::record_access(a, size, flags, code);
  if (gpulab::emu::check::modes.profile) gpulab::emu::check::profile_access(a, size, flags, code);
  tl_active = true;
}

// 16-byte atomics without cmpxchg16b (which would need libatomic): a spin lock.
// Only correct among themselves, which is all the emulator needs.
unsigned char wide_lock;
struct WideGuard {
  WideGuard() {
    while (__atomic_test_and_set(&wide_lock, __ATOMIC_ACQUIRE)) {}
  }
  ~WideGuard() { __atomic_clear(&wide_lock, __ATOMIC_RELEASE); }
};

}  // namespace

#define PC __builtin_return_address(0)

extern "C" {

void __tsan_init() { gpulab::emu::check::install_checker(); }
void __tsan_func_entry(void*) {}
void __tsan_func_exit() {}
void __tsan_vptr_update(void**, void*) {}
void __tsan_vptr_read(void**) {}
void __tsan_read_range(void* a, unsigned long size) { record(a, size, kRead, PC); }
void __tsan_write_range(void* a, unsigned long size) { record(a, size, kWrite, PC); }

// The copies clang's instrumentation hands over instead of performing them (struct copies, loops
// it turned into one call): performed here, then recorded as one ranged read and write.
void* __tsan_memcpy(void* dst, const void* src, size_t size) {
  __builtin_memcpy(dst, src, size);
  record(src, size, kRead, PC);
  record(dst, size, kWrite, PC);
  return dst;
}
void* __tsan_memmove(void* dst, const void* src, size_t size) {
  __builtin_memmove(dst, src, size);
  record(src, size, kRead, PC);
  record(dst, size, kWrite, PC);
  return dst;
}
void* __tsan_memset(void* dst, int value, size_t size) {
  __builtin_memset(dst, value, size);
  record(dst, size, kWrite, PC);
  return dst;
}

#define GPULAB_PLAIN(N)                                                                    \
  void __tsan_read##N(void* a) { record(a, N, kRead, PC); }                                \
  void __tsan_write##N(void* a) { record(a, N, kWrite, PC); }                              \
  void __tsan_unaligned_read##N(void* a) { record(a, N, kRead, PC); }                      \
  void __tsan_unaligned_write##N(void* a) { record(a, N, kWrite, PC); }                    \
  void __tsan_volatile_read##N(void* a) { record(a, N, kRead | kVolatile, PC); }           \
  void __tsan_volatile_write##N(void* a) { record(a, N, kWrite | kVolatile, PC); }         \
  void __tsan_unaligned_volatile_read##N(void* a) { record(a, N, kRead | kVolatile, PC); } \
  void __tsan_unaligned_volatile_write##N(void* a) { record(a, N, kWrite | kVolatile, PC); }

GPULAB_PLAIN(1)
GPULAB_PLAIN(2)
GPULAB_PLAIN(4)
GPULAB_PLAIN(8)
GPULAB_PLAIN(16)
#undef GPULAB_PLAIN

void __tsan_atomic_thread_fence(int) {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  if (tl_active) {
    tl_active = false;
    gpulab::emu::check::note_fence();
    tl_active = true;
  }
}
void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

// Native atomics for 1 to 8 bytes. The memory order is always seq_cst (stronger than asked, never weaker).
#define GPULAB_RMW(N, T, op, builtin)                     \
  T __tsan_atomic##N##_##op(volatile T* a, T v, int) {    \
    const T old = builtin(a, v, __ATOMIC_SEQ_CST);        \
    record(a, sizeof(T), kWrite | kAtomic | kUpdate, PC); \
    return old;                                           \
  }

#define GPULAB_ATOMICS(N, T)                                                                                 \
  T __tsan_atomic##N##_load(const volatile T* a, int) {                                                      \
    const T v = __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                        \
    record(a, sizeof(T), kRead | kAtomic, PC);                                                               \
    return v;                                                                                                \
  }                                                                                                          \
  void __tsan_atomic##N##_store(volatile T* a, T v, int) {                                                   \
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                                \
    record(a, sizeof(T), kWrite | kAtomic, PC);                                                              \
  }                                                                                                          \
  GPULAB_RMW(N, T, exchange, __atomic_exchange_n)                                                            \
  GPULAB_RMW(N, T, fetch_add, __atomic_fetch_add)                                                            \
  GPULAB_RMW(N, T, fetch_sub, __atomic_fetch_sub)                                                            \
  GPULAB_RMW(N, T, fetch_and, __atomic_fetch_and)                                                            \
  GPULAB_RMW(N, T, fetch_or, __atomic_fetch_or)                                                              \
  GPULAB_RMW(N, T, fetch_xor, __atomic_fetch_xor)                                                            \
  GPULAB_RMW(N, T, fetch_nand, __atomic_fetch_nand)                                                          \
  int __tsan_atomic##N##_compare_exchange_strong(volatile T* a, T* expected, T v, int, int) {                \
    const bool ok = __atomic_compare_exchange_n(a, expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);  \
    record(a, sizeof(T), ok ? kWrite | kAtomic | kUpdate : kRead | kAtomic, PC);                             \
    return ok;                                                                                               \
  }                                                                                                          \
  int __tsan_atomic##N##_compare_exchange_weak(volatile T* a, T* expected, T v, int, int) {                  \
    const bool ok = __atomic_compare_exchange_n(a, expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);  \
    record(a, sizeof(T), ok ? kWrite | kAtomic | kUpdate : kRead | kAtomic, PC);                             \
    return ok;                                                                                               \
  }                                                                                                          \
  T __tsan_atomic##N##_compare_exchange_val(volatile T* a, T expected, T v, int, int) {                      \
    const bool ok = __atomic_compare_exchange_n(a, &expected, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST); \
    record(a, sizeof(T), ok ? kWrite | kAtomic | kUpdate : kRead | kAtomic, PC);                             \
    return expected;                                                                                         \
  }

GPULAB_ATOMICS(8, uint8_t)
GPULAB_ATOMICS(16, uint16_t)
GPULAB_ATOMICS(32, uint32_t)
GPULAB_ATOMICS(64, uint64_t)
#undef GPULAB_ATOMICS
#undef GPULAB_RMW

// 16 bytes, under the spin lock.
using u128 = unsigned __int128;
#define GPULAB_WIDE_RMW(op, expr)                             \
  u128 __tsan_atomic128_##op(volatile u128* a, u128 v, int) { \
    u128 old;                                                 \
    {                                                         \
      WideGuard guard;                                        \
      old = *a;                                               \
      *a = (expr);                                            \
    }                                                         \
    record(a, 16, kWrite | kAtomic | kUpdate, PC);            \
    return old;                                               \
  }
u128 __tsan_atomic128_load(const volatile u128* a, int) {
  u128 v;
  {
    WideGuard guard;
    v = *a;
  }
  record(a, 16, kRead | kAtomic, PC);
  return v;
}
void __tsan_atomic128_store(volatile u128* a, u128 v, int) {
  {
    WideGuard guard;
    *a = v;
  }
  record(a, 16, kWrite | kAtomic, PC);
}
GPULAB_WIDE_RMW(exchange, v)
GPULAB_WIDE_RMW(fetch_add, old + v)
GPULAB_WIDE_RMW(fetch_sub, old - v)
GPULAB_WIDE_RMW(fetch_and, old& v)
GPULAB_WIDE_RMW(fetch_or, old | v)
GPULAB_WIDE_RMW(fetch_xor, old ^ v)
GPULAB_WIDE_RMW(fetch_nand, ~(old& v))
#undef GPULAB_WIDE_RMW

static bool wide_cas(volatile u128* a, u128* expected, u128 v) {
  WideGuard guard;
  const u128 old = *a;
  if (old == *expected) {
    *a = v;
    return true;
  }
  *expected = old;
  return false;
}
int __tsan_atomic128_compare_exchange_strong(volatile u128* a, u128* expected, u128 v, int, int) {
  const bool ok = wide_cas(a, expected, v);
  record(a, 16, ok ? kWrite | kAtomic | kUpdate : kRead | kAtomic, PC);
  return ok;
}
int __tsan_atomic128_compare_exchange_weak(volatile u128* a, u128* expected, u128 v, int, int) {
  const bool ok = wide_cas(a, expected, v);
  record(a, 16, ok ? kWrite | kAtomic | kUpdate : kRead | kAtomic, PC);
  return ok;
}
u128 __tsan_atomic128_compare_exchange_val(volatile u128* a, u128 expected, u128 v, int, int) {
  const bool ok = wide_cas(a, &expected, v);
  record(a, 16, ok ? kWrite | kAtomic | kUpdate : kRead | kAtomic, PC);
  return expected;
}

}  // extern "C"
