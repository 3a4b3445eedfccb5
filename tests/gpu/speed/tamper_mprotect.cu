// Exploit (in-process tampering, docs/security.md): makes the code page of
// cudaEventElapsedTime writable and executable with mprotect and overwrites
// its first bytes with a jump to a timer that reports a sixteenth of the real
// time, while doing sixteen times the reference's work. Caught by the audit
// (mprotect) and, where the audit is passed by, by the harness's system-call
// filter (mprotect with PROT_EXEC).
#include <sys/mman.h>
#include <unistd.h>

#include "tamper_patch.cuh"

namespace {
void tamper_once() {
  static bool done = false;
  if (done) return;
  done = true;
  const long page = sysconf(_SC_PAGESIZE);
  char* start = reinterpret_cast<char*>(reinterpret_cast<uintptr_t>(timer_address()) & ~static_cast<uintptr_t>(page - 1));
  if (mprotect(start, 2 * page, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) return;
#if defined(__x86_64__)
  unsigned char code[kPatchBytes];
  patch_bytes(code);
  std::memcpy(timer_address(), code, kPatchBytes);
#endif
  mprotect(start, 2 * page, PROT_READ | PROT_EXEC);
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
