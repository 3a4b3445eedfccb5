// The state of a cuda::barrier (and of each stage of a block-scope
// cuda::pipeline), kept inside the object, which usually lives in shared
// memory. Only the runtime (src/cuda_barrier.cpp) reads and writes it: the
// race-check build instruments the program's code, and the barrier's own
// bookkeeping is not the program's memory traffic.
#pragma once

namespace gpulab::emu {

struct BarrierState {
  unsigned magic;  // set by init(); anything else means "never initialised"
  unsigned reserved;
  long long expected;        // arrivals each phase needs
  long long pending;         // arrivals the current phase still needs
  unsigned long long phase;  // phases completed so far
};

void barrier_init(BarrierState* b, long long expected, const char* file, int line);
// Counts `update` arrivals (`drop`: the caller also leaves the later phases) and
// returns the phase arrived at. When this arrival completes it, *completes is
// set: the caller runs what happens at completion and then calls barrier_complete.
unsigned long long barrier_arrive(BarrierState* b, long long update, bool drop, bool* completes, const char* what,
                                  const char* file, int line);
// Starts the next phase and releases the threads waiting for this one.
void barrier_complete(BarrierState* b, const char* file, int line);
// Suspends the calling GPU thread until phase `phase` has completed.
void barrier_wait(BarrierState* b, unsigned long long phase, const char* what, const char* file, int line);
unsigned long long barrier_phases_completed(const BarrierState* b, const char* file, int line);

}  // namespace gpulab::emu
