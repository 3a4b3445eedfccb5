// Exploit (in-process tampering, docs/security.md): a static constructor with
// the first init priority patches cudaEventElapsedTime before main() (before
// the harness would have hardened anything that runs later), while the host
// function does sixteen times the reference's work. Caught by the audit (a
// constructor with a priority, mprotect) and, past it, by the harness's
// system-call filter, which is in place before the first constructor of the
// submission runs.
#include <sys/mman.h>
#include <unistd.h>

#include "tamper_patch.cuh"

namespace {
__attribute__((constructor(101))) void patch_before_main() {
  const long page = sysconf(_SC_PAGESIZE);
  char* start = reinterpret_cast<char*>(reinterpret_cast<uintptr_t>(timer_address()) & ~static_cast<uintptr_t>(page - 1));
  if (mprotect(start, 2 * page, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) return;
#if defined(__x86_64__)
  unsigned char code[kPatchBytes];
  patch_bytes(code);
  std::memcpy(timer_address(), code, kPatchBytes);
#endif
}

void tamper_once() {}
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
