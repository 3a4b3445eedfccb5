// Exploit (in-process tampering, docs/security.md): no forbidden call at all.
// It scans the stack of its callers for the harness's two timing events (two
// neighbouring words that differ by the distance between two events it makes
// itself) and records them again before its last pass, so that the timed
// interval is a sixteenth of its calls (as fast as the reference: a plausible
// speed), while doing sixteen times the reference's work. The audit has nothing to find; the grader's own clock,
// which runs in another process, catches it. (Where the events are not laid
// out that way, as on a GPU, it finds nothing and is simply slow.)
#include <cstdint>

#include "tamper_common.cuh"

namespace {
bool near(uintptr_t a, uintptr_t b) { return (a > b ? a - b : b - a) < (uintptr_t{16} << 20); }

void rerecord_harness_events() {
  static cudaEvent_t mine[2] = {nullptr, nullptr};
  if (!mine[0]) {
    cudaEventCreate(&mine[0]);
    cudaEventCreate(&mine[1]);
  }
  const auto m0 = reinterpret_cast<uintptr_t>(mine[0]), m1 = reinterpret_cast<uintptr_t>(mine[1]);
  const uintptr_t stride = m1 > m0 ? m1 - m0 : m0 - m1;
  const auto* words = static_cast<const uintptr_t*>(__builtin_frame_address(0));
  for (int i = 0; i < 255; ++i) {  // 2 KiB of the callers' frames
    const uintptr_t a = words[i], b = words[i + 1];
    if (a == m0 || a == m1 || b == m0 || b == m1 || !a || !b || a % 16 || b % 16) continue;
    if ((a > b ? a - b : b - a) != stride || !near(a, m0) || !near(b, m0)) continue;
    cudaEventRecord(reinterpret_cast<cudaEvent_t>(a), 0);
    cudaEventRecord(reinterpret_cast<cudaEvent_t>(b), 0);
    return;
  }
}
}  // namespace

void reduce_sum_int(const int* in, int* out, int n) {
  for (int r = 0; r < kTamperRepeats; ++r) {
    if (r == kTamperRepeats - 1) {
      cudaDeviceSynchronize();
      rerecord_harness_events();  // the timed interval starts again here
    }
    cudaMemset(out, 0, sizeof(int));
    shuffle_sum<int><<<sum_blocks(n), RBLOCK>>>(in, out, n);
  }
}

void reduce_sum_float(const float* in, float* out, int n) { shuffle_sum<float><<<sum_blocks(n), RBLOCK>>>(in, out, n); }
