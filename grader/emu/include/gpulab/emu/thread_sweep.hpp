// The fast path's loop over a block's threads, compiled with the kernel. The
// block runner (grader/emu/src/block_runner.cpp) starts the threads that have
// not started yet one after another as plain calls; running that loop here,
// in the kernel's own translation unit, lets the compiler inline the kernel
// into it (it does for the short kernels where the loop's cost matters) and
// makes the call a direct one otherwise. A thread that runs as a plain call
// keeps no record of its own: the loop moves one context that the runner owns
// (gpulab_emu_thread points there) from thread to thread, and the runner fills
// in the thread's record only when it asks the runner for something (a
// barrier, a warp collective, a report). The loop stops at the first thread
// that waited on the way: that thread has since ended as a fiber on this
// stack, and the runner takes it from there.
#pragma once
#include <cstddef>

#include "gpulab/emu/execution_context.hpp"

namespace gpulab::emu {

struct ThreadSweep {
  ThreadContext* context;     // the runner's context, holding thread `begin` when the loop starts
  unsigned begin, end;        // the threads to start, by rank (begin < end)
  unsigned block_x, block_y;  // blockDim.x and .y, to count thread indices on
  bool waited = false;        // set by the runner when the running thread first waits
};

// Stores the running thread's rank, which the watchdog reads from its own thread to see that a
// sweep moves on. A volatile store: one aligned 32-bit `mov` that the compiler neither drops nor
// moves out of the loop, and which (unlike its atomic built-ins, which it treats as barriers to
// every other memory access) lets it keep the kernel's arguments in registers: a third of a
// barrier-free thread's time. The watchdog reads it with a relaxed atomic load (the pattern of
// Linux's WRITE_ONCE/READ_ONCE; the value is only ever compared with an earlier one).
inline void store_rank(unsigned* where, unsigned rank) { *static_cast<volatile unsigned*>(where) = rank; }

// Returns `end`, or the rank of the thread that waited. Per thread, only what changes is
// written: the rank and x, y and z when x wraps. The kernel appears once
// in the loop, which the checking build needs: its reports and profile tell accesses apart by
// code address, so a second copy of the kernel (a peeled first iteration) would split them.
template <class Closure> unsigned sweep_threads(const void* closure, ThreadSweep& s) {
  const Closure& c = *static_cast<const Closure*>(closure);
  ThreadContext* const context = s.context;
  const unsigned end = s.end, bx = s.block_x, by = s.block_y;
  unsigned x = context->thread_idx.x, y = context->thread_idx.y, z = context->thread_idx.z;
  gpulab_emu_thread = context;
  for (unsigned i = s.begin; i < end; ++i) {
    c.run();
    if (s.waited) return i;
    // On to thread i + 1 (past the last one, the context is no longer read).
    store_rank(&context->linear, i + 1);
    if (++x == bx) {  // counted on, not divided
      x = 0;
      if (++y == by) {
        y = 0;
        context->thread_idx.z = ++z;
      }
      context->thread_idx.y = y;
    }
    context->thread_idx.x = x;
  }
  return end;
}

}  // namespace gpulab::emu
