// The context switch between GPU-thread fibers. On x86-64 a minimal switch of
// our own that saves only the callee-saved registers: Boost.Context's
// jump_fcontext also saves and restores the x87 and SSE control words on every
// switch, which measured as three quarters of its cost here, and emulated GPU
// threads never change them across a switch. Elsewhere, Boost.Context's fcontext.
#pragma once
#include <cstddef>

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
