// The fast path's loop over a block's threads, compiled with the kernel. The
// block runner (grader/emu/src/block_runner.cpp) starts the threads that have
// not started yet one after another as plain calls; running that loop here,
// in the kernel's own translation unit, lets the compiler inline the kernel
// into it: no indirect call per GPU thread. A thread that runs as a plain call
// keeps no record of its own: the loop writes its indices into one context
// that the runner owns (gpulab_emu_thread points there), and the runner fills
// in the thread's record only when it asks the runner for something (a
// barrier, a warp collective, a report). The loop stops at the first thread
// that waited on the way: that thread has since ended as a fiber on this
// stack, and the runner takes it from there.
#pragma once
#include <cstddef>

#include "gpulab/emu/execution_context.hpp"

namespace gpulab::emu {

struct ThreadSweep {
  ThreadContext* context;     // the runner's context for the thread running as a plain call
  unsigned begin, end;        // the threads to start, by rank
  unsigned block_x, block_y;  // blockDim.x and .y, to count thread indices on
  bool waited = false;        // set by the runner when the running thread first waits
};

// Returns `end`, or the rank of the thread that waited. Flattened: the kernel, and what it calls
// that is visible here, is inlined into the loop. `linear` is stored atomically (relaxed): the
// watchdog reads it from its own thread to see that the sweep moves on.
template <class Closure> __attribute__((flatten)) unsigned sweep_threads(const void* closure, ThreadSweep& s) {
  const Closure& c = *static_cast<const Closure*>(closure);
  ThreadContext* const context = s.context;
  const unsigned end = s.end, bx = s.block_x, by = s.block_y;
  unsigned i = s.begin;
  unsigned x = i % bx, y = i / bx % by, z = i / bx / by;
  for (; i < end; ++i) {
    context->thread_idx = uint3{x, y, z};
    __atomic_store_n(&context->linear, i, __ATOMIC_RELAXED);
    context->lane = i % 32;
    context->warp = i / 32;
    gpulab_emu_thread = context;
    c.run();
    if (s.waited) return i;
    if (++x == bx) {  // counted on, not divided
      x = 0;
      if (++y == by) {
        y = 0;
        ++z;
      }
    }
  }
  return end;
}

}  // namespace gpulab::emu
