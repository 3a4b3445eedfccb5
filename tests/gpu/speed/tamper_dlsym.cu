// Exploit (in-process tampering, docs/security.md): finds mprotect with dlsym
// (so that its own object names no mprotect), makes cudaEventElapsedTime's
// code writable and executable and patches it, while doing sixteen times the
// reference's work. Caught by the audit (dlsym) and, past it, by the
// harness's system-call filter (mprotect with PROT_EXEC).
#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tamper_patch.cuh"

namespace {
void tamper_once() {
  static bool done = false;
  if (done) return;
  done = true;
  using Protect = int (*)(void*, size_t, int);
  const auto protect = reinterpret_cast<Protect>(dlsym(RTLD_DEFAULT, "mprotect"));
  if (!protect) return;
  const long page = sysconf(_SC_PAGESIZE);
  char* start = reinterpret_cast<char*>(reinterpret_cast<uintptr_t>(timer_address()) & ~static_cast<uintptr_t>(page - 1));
  if (protect(start, 2 * page, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) return;
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
