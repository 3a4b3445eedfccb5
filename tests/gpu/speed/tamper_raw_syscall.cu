// Exploit (in-process tampering, docs/security.md): calls mprotect by a raw
// system call in inline assembly (no library function named), then patches
// cudaEventElapsedTime, while doing sixteen times the reference's work.
// Caught by the audit (host-side inline assembly, a syscall instruction) and,
// past it, by the harness's system-call filter, which sees the call however
// it is made (on both backends: host-side assembly compiles on the emulator too,
// as nvcc's host pass compiles it).
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tamper_patch.cuh"

namespace {
long raw_mprotect(void* address, size_t bytes, long protection) {
#if defined(__x86_64__)
  long result;
  asm volatile("syscall"
               : "=a"(result)
               : "a"(static_cast<long>(SYS_mprotect)), "D"(address), "S"(bytes), "d"(protection)
               : "rcx", "r11", "memory");
  return result;
#else
  return syscall(SYS_mprotect, address, bytes, protection);
#endif
}

void tamper_once() {
  static bool done = false;
  if (done) return;
  done = true;
  const long page = sysconf(_SC_PAGESIZE);
  char* start = reinterpret_cast<char*>(reinterpret_cast<uintptr_t>(timer_address()) & ~static_cast<uintptr_t>(page - 1));
  if (raw_mprotect(start, 2 * page, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) return;
#if defined(__x86_64__)
  unsigned char code[kPatchBytes];
  patch_bytes(code);
  std::memcpy(timer_address(), code, kPatchBytes);
#endif
}
}  // namespace

void reduce_sum_int(const int* in, int* out, int n) {
  call_began() = std::chrono::steady_clock::now();
  tamper_once();
  for (int r = 0; r < kTamperRepeats; ++r) {
    cudaMemset(out, 0, sizeof(int));
    shuffle_sum<int><<<sum_blocks(n), RBLOCK>>>(in, out, n);
  }
}

void reduce_sum_float(const float* in, float* out, int n) { shuffle_sum<float><<<sum_blocks(n), RBLOCK>>>(in, out, n); }
