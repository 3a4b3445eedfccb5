// Exploit (in-process tampering, docs/security.md): lets any process trace it
// (PR_SET_PTRACER), forks a child that attaches with ptrace and pokes the jump
// into cudaEventElapsedTime's code, while doing sixteen times the reference's
// work. Caught by the audit (prctl, fork, ptrace) and, past it, by the
// harness's system-call filter (the parent's prctl, the child's ptrace).
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tamper_patch.cuh"

namespace {
void tamper_once() {
  static bool done = false;
  if (done) return;
  done = true;
  prctl(PR_SET_PTRACER, PR_SET_PTRACER_ANY, 0, 0, 0);
  const pid_t parent = getpid();
  const pid_t child = fork();
  if (child == 0) {
    if (ptrace(PTRACE_ATTACH, parent, nullptr, nullptr) == 0) {
      waitpid(parent, nullptr, 0);
#if defined(__x86_64__)
      unsigned char code[16] = {};
      patch_bytes(reinterpret_cast<unsigned char(&)[kPatchBytes]>(code));
      for (size_t i = 0; i < sizeof code; i += sizeof(long)) {
        long word;
        std::memcpy(&word, code + i, sizeof word);
        ptrace(PTRACE_POKETEXT, parent, static_cast<char*>(timer_address()) + i, reinterpret_cast<void*>(word));
      }
#endif
      ptrace(PTRACE_DETACH, parent, nullptr, nullptr);
    }
    _exit(0);
  }
  if (child > 0) waitpid(child, nullptr, 0);
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
