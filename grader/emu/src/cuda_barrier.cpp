// cuda::barrier phases on the emulator (barrier_state.hpp): arrivals are
// counted in the barrier object, a waiting thread's fiber is parked on it,
// and the arrival that completes a phase releases them.
#include <string>

#include "gpulab/emu/async_copy.hpp"
#include "gpulab/emu/barrier_state.hpp"
#include "gpulab/emu/group_waits.hpp"

namespace gpulab::emu {
namespace {
constexpr unsigned kInitialised = 0x62617272;  // "barr"

bool usable(const BarrierState* b, const char* what, const char* file, int line) {
  if (b->magic == kInitialised) return true;
  device_misuse("barrier",
                (std::string(what) + " on a barrier that was never initialised: call init(&bar, count) "
                                     "(one thread, then __syncthreads()) before using it")
                    .c_str(),
                file, line);
  return false;
}
}  // namespace

void barrier_init(BarrierState* b, long long expected, const char* file, int line) {
  if (expected < 0) device_misuse("barrier", "init(&bar, count): the count must not be negative", file, line);
  b->magic = kInitialised;
  b->reserved = 0;
  b->expected = expected;
  b->pending = expected;
  b->phase = 0;
}

unsigned long long barrier_arrive(BarrierState* b, long long update, bool drop, bool* completes, const char* what,
                                  const char* file, int line) {
  *completes = false;
  if (!usable(b, what, file, line)) return 0;
  if (update <= 0 || update > b->pending) {
    device_misuse(
        "barrier",
        (std::string(what) + ": more arrivals than the barrier expects in this phase (" + std::to_string(b->pending) +
         " left of " + std::to_string(b->expected) + "); the count given to init() is too small")
            .c_str(),
        file, line);
    return b->phase;
  }
  if (drop) --b->expected;
  b->pending -= update;
  *completes = b->pending == 0;
  // What the completing thread does next (the tracked copies, the completion
  // function) comes after every arrival and before every waiter goes on: a
  // barrier interval of its own for the race check, closed by barrier_complete.
  if (*completes) group_synchronised(file, line);
  return b->phase;
}

void barrier_complete(BarrierState* b, const char* file, int line) {
  b->pending = b->expected;
  ++b->phase;
  group_synchronised(file, line);
  wake_parked(b);
}

void barrier_wait(BarrierState* b, unsigned long long phase, const char* what, const char* file, int line) {
  if (!usable(b, what, file, line)) return;
  while (b->phase <= phase) park(b, what, file, line);
}

unsigned long long barrier_phases_completed(const BarrierState* b, const char* file, int line) {
  return usable(b, "cuda::barrier", file, line) ? b->phase : 0;
}

}  // namespace gpulab::emu
