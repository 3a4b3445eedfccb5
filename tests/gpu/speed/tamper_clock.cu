// Exploit (in-process tampering, docs/security.md): defines the C library's
// clock_gettime, so that every clock of the process (the emulator's events
// among them) runs at a sixteenth of the real rate, while doing sixteen times
// the reference's work. Caught by the audit (a definition that collides with
// the C library's) and, past it, by the grader's own clock, which is another
// process's.
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "tamper_common.cuh"

extern "C" int clock_gettime(clockid_t clock, struct timespec* t) {
  const long r = syscall(SYS_clock_gettime, clock, t);
  if (r == 0 && t) {
    const long double ns = (static_cast<long double>(t->tv_sec) * 1e9L + t->tv_nsec) / kTamperRepeats;
    t->tv_sec = static_cast<time_t>(ns / 1e9L);
    t->tv_nsec = static_cast<long>(ns - static_cast<long double>(t->tv_sec) * 1e9L);
  }
  return static_cast<int>(r);
}

namespace {
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
