// A GPU thread's indices from its rank in its block, and the step to the next rank, as the
// sweep's loop and the region form's loops count them (x fastest, then y, then z).
#pragma once
#include "gpulab/emu/execution_context.hpp"

namespace gpulab::emu {

// The indices of the thread of rank `i` in a block of shape `b`.
inline ThreadContext context_of_rank(unsigned i, dim3 b) {
  return ThreadContext{uint3{i % b.x, i / b.x % b.y, i / b.x / b.y}, i};
}
// On to the next thread of a block of shape `b` (as the sweep's loop counts).
inline void step_context(ThreadContext& c, dim3 b) {
  ++c.linear;
  if (++c.thread_idx.x < b.x) return;
  c.thread_idx.x = 0;
  if (++c.thread_idx.y < b.y) return;
  c.thread_idx.y = 0;
  ++c.thread_idx.z;
}
}  // namespace gpulab::emu
