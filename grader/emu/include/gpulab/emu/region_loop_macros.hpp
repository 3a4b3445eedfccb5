// The loop over a block's threads that the rewriter writes around each region between barriers
// (thread_regions.hpp): its own header, so that the rewriter's compile tests (tests/rewriter/
// emu_stub.hpp) check its output against these very macros. Needs ::uint3 and a block whose
// `dim` and `at(rank, ...)` thread_regions.hpp defines.
#pragma once

// The loop over the block's threads of one region, in rank order (x fastest). gpulab_r is the
// thread's rank (its slot), gpulab_tid its threadIdx. A region of a few statements without loops
// has its loop over x unrolled (_UNROLLED); one that calls code that may read threadIdx through the
// runtime keeps the runtime's record of the thread whole (_WITH_CONTEXT), others only its rank.
// Each row's loop starts its rank afresh: a region's loop may stop a row early (`break`, written
// by the rewriter where the row's remaining threads would do nothing). The counters are int (a
// block has at most 1024 threads), so that a kernel's `int t = threadIdx.x` is the loop's own
// counter to the compiler, and its indices need no widening in every iteration.
// clang-format off
#define GPULAB_EMU_EACH_THREAD_AT(rb, unroll, ...)                                                       \
  for (int gpulab_z = 0; gpulab_z < int((rb).dim.z); ++gpulab_z)                                         \
    for (int gpulab_y = 0; gpulab_y < int((rb).dim.y); ++gpulab_y)                                       \
      unroll for (int gpulab_x = 0, gpulab_r = (gpulab_z * int((rb).dim.y) + gpulab_y) * int((rb).dim.x); \
                  gpulab_x < int((rb).dim.x); ++gpulab_x, ++gpulab_r)                                    \
        if ([[maybe_unused]] const ::uint3 gpulab_tid{unsigned(gpulab_x), unsigned(gpulab_y), unsigned(gpulab_z)}; \
            (rb).at(__VA_ARGS__), true)
#define GPULAB_EMU_UNROLL_4 _Pragma("GCC unroll 4")
#define GPULAB_EMU_EACH_THREAD(rb) GPULAB_EMU_EACH_THREAD_AT(rb, , gpulab_r)
#define GPULAB_EMU_EACH_THREAD_WITH_CONTEXT(rb) GPULAB_EMU_EACH_THREAD_AT(rb, , gpulab_r, gpulab_x, gpulab_y, gpulab_z)
#define GPULAB_EMU_EACH_THREAD_UNROLLED(rb) GPULAB_EMU_EACH_THREAD_AT(rb, GPULAB_EMU_UNROLL_4, gpulab_r)
#define GPULAB_EMU_EACH_THREAD_UNROLLED_WITH_CONTEXT(rb) \
  GPULAB_EMU_EACH_THREAD_AT(rb, GPULAB_EMU_UNROLL_4, gpulab_r, gpulab_x, gpulab_y, gpulab_z)
// clang-format on
