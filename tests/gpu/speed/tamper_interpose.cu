// Exploit (in-process tampering, docs/security.md): defines
// cudaEventElapsedTime itself, so that the harness's calls reach this one
// (interposition: no code written at all), reporting a sixteenth of the real
// time, while doing sixteen times the reference's work. Caught by the audit
// (a definition that collides with the CUDA runtime's) and, past it, by the
// grader's own clock.
#include "tamper_common.cuh"

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t, cudaEvent_t) {
  *ms = lying_milliseconds();
  return cudaSuccess;
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
