// The context switch between GPU-thread fibers: one interface, one implementation per
// architecture. gpulab's own minimal switches save only the callee-saved registers:
// fiber_switch_x86_64.cpp (System V) and fiber_switch_aarch64.cpp (AAPCS64), each for ELF and
// Mach-O; fiber_switch_boost.cpp (Boost.Context's fcontext) serves every other architecture.
// grader/emu/CMakeLists.txt picks them (GPULAB_EMU_FIBERS).
// It and the two own switches include only <stddef.h> and <stdint.h>, which the compiler itself
// provides: their Mach-O side compiles on Linux with no macOS SDK (docs/platforms.md).
#pragma once
#include <stddef.h>

namespace gpulab::emu::fiber {

using context = void*;
struct transfer {
  context from;  // the fiber that switched to us, suspended
  void* data;
};
using entry_fn = void (*)(transfer);

// Prepares a fiber on [top - size, top) that will start in `fn` when first jumped to.
context make(void* top, size_t size, entry_fn fn);
// Suspends the caller and resumes `to`; returns when someone jumps back.
transfer jump(context to, void* data);

}  // namespace gpulab::emu::fiber
