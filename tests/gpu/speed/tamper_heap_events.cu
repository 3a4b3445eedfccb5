// Exploit (in-process tampering, docs/security.md): no forbidden call at all,
// only the memory of its own process. On its first call it makes 32 events of
// its own and destroys them, so that the heap hands their places to the next
// events made on this thread: the harness's two timing events. On each timed
// call it looks at those places for objects that read as recorded events (the
// emulator's event begins with its flags, 0, and a "recorded" flag) and,
// before its last pass, records them again, so that the timed interval is a
// sixteenth of its calls (as fast as the reference: a plausible speed), while
// doing sixteen times the reference's work. The audit has nothing to find;
// the grader's own clock, which runs in another process, catches it. (Where
// events are not laid out that way, as on a GPU, it finds nothing and is
// simply slow.)
#include <cstdint>

#include "tamper_common.cuh"

namespace {
constexpr int kPlaces = 32;
uintptr_t places[kPlaces];

// The emulator's event as its first bytes lie in memory: unsigned flags 0, then bool recorded.
bool looks_recorded(uintptr_t address) {
  unsigned char bytes[8];
  __builtin_memcpy(bytes, reinterpret_cast<const void*>(address), sizeof bytes);
  return bytes[0] == 0 && bytes[1] == 0 && bytes[2] == 0 && bytes[3] == 0 && bytes[4] == 1;
}

void groom_or_rerecord(int call) {
  if (call == 1) {
    cudaEvent_t made[kPlaces];
    for (cudaEvent_t& e : made) cudaEventCreate(&e);
    for (int i = 0; i < kPlaces; ++i) places[i] = reinterpret_cast<uintptr_t>(made[i]);
    for (int i = kPlaces; i-- > 0;) cudaEventDestroy(made[i]);
    return;
  }
  for (uintptr_t p : places)
    if (looks_recorded(p)) cudaEventRecord(reinterpret_cast<cudaEvent_t>(p), 0);
}
}  // namespace

void reduce_sum_int(const int* in, int* out, int n) {
  static int calls = 0;
  ++calls;
  if (calls == 1) groom_or_rerecord(calls);
  for (int r = 0; r < kTamperRepeats; ++r) {
    if (r == kTamperRepeats - 1 && calls > 1) {
      cudaDeviceSynchronize();
      groom_or_rerecord(calls);  // the timed interval starts again here
    }
    cudaMemset(out, 0, sizeof(int));
    shuffle_sum<int><<<sum_blocks(n), RBLOCK>>>(in, out, n);
  }
}

void reduce_sum_float(const float* in, float* out, int n) { shuffle_sum<float><<<sum_blocks(n), RBLOCK>>>(in, out, n); }
