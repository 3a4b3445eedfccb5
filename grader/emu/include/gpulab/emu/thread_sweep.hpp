// The fast path's loop over a block's threads, compiled with the kernel. The
// block runner (grader/emu/src/block_runner.cpp) starts the threads that have
// not started yet one after another as plain calls; running that loop here,
// in the kernel's own translation unit, lets the compiler inline the kernel
// into it: no indirect call per GPU thread. The runner fills each thread's
// record (its ThreadContext first) before the loop; the loop does per thread
// what the runner did: marks it the running one, calls the kernel, and counts
// it finished, or stops at the first thread that waited on the way (it has
// since ended as a fiber on this stack, and the runner takes it from there).
#pragma once
#include <atomic>
#include <cstddef>

#include "gpulab/emu/execution_context.hpp"

namespace gpulab::emu {

struct EmuThread;  // the runner's record of a GPU thread; its ThreadContext comes first

struct ThreadSweep {
  unsigned char* records;  // threads_[0]; records are `record_bytes` apart
  size_t record_bytes;
  size_t state_offset;  // the record's state byte, set to `exited_state` when the thread ends
  unsigned char exited_state;
  size_t waited_offset;      // the record's on_own_stack flag: true once the thread has waited
  unsigned begin, end;       // the threads to start
  unsigned* next_unstarted;  // the runner's counters, kept as the runner keeps them
  unsigned* live;
  unsigned* runnable;
  EmuThread** current;
  std::atomic<unsigned long long>* progress;
};

// Returns `end`, or the rank of the thread that waited. Flattened: the kernel, and what it calls
// that is visible here, is inlined into the loop; the cursor's fields are read once, into registers.
template <class Closure> __attribute__((flatten)) unsigned sweep_threads(const void* closure, ThreadSweep& s) {
  const Closure& c = *static_cast<const Closure*>(closure);
  unsigned char* const records = s.records;
  const size_t record_bytes = s.record_bytes, state_offset = s.state_offset, waited_offset = s.waited_offset;
  const unsigned char exited = s.exited_state;
  unsigned* const next_unstarted = s.next_unstarted;
  unsigned* const live = s.live;
  unsigned* const runnable = s.runnable;
  EmuThread** const current = s.current;
  std::atomic<unsigned long long>* const progress = s.progress;
  const unsigned end = s.end;
  for (unsigned i = s.begin; i < end; ++i) {
    unsigned char* record = records + static_cast<size_t>(i) * record_bytes;
    *next_unstarted = i + 1;
    *current = reinterpret_cast<EmuThread*>(record);
    gpulab_emu_thread = reinterpret_cast<ThreadContext*>(record);
    c.run();
    if (record[waited_offset]) return i;
    record[state_offset] = exited;
    --*live;
    --*runnable;
    progress->store(progress->load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
  return end;
}

}  // namespace gpulab::emu
