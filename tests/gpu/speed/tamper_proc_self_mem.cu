// Exploit (in-process tampering, docs/security.md): writes the jump into
// cudaEventElapsedTime's code through /proc/self/mem, which ignores page
// protections, while doing sixteen times the reference's work. Caught by the
// audit (open, pwrite: a graded function opens no files); past the audit, by
// the grader's own clock (the reported time cannot be the calls' time).
#include <fcntl.h>
#include <unistd.h>

#include "tamper_patch.cuh"

namespace {
void tamper_once() {
  static bool done = false;
  if (done) return;
  done = true;
  const int fd = open("/proc/self/mem", O_RDWR);
  if (fd < 0) return;
#if defined(__x86_64__)
  unsigned char code[kPatchBytes];
  patch_bytes(code);
  (void)!pwrite(fd, code, kPatchBytes, static_cast<off_t>(reinterpret_cast<uintptr_t>(timer_address())));
#endif
  close(fd);
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
