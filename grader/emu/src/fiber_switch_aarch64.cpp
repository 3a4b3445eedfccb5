// The fiber switch for AArch64 (AAPCS64; ELF on Linux, Mach-O on Apple Silicon), written by hand
// as the x86-64 one is: it saves exactly what the procedure call standard makes callee-saved,
// x19-x28, the frame pointer x29, the link register x30 and the low halves d8-d15 of v8-v15, and
// keeps sp as the context. It never reads or writes x18, the platform register (Apple reserves
// it; on Linux it is an ordinary temporary no caller expects kept). Floating-point control
// (FPCR) is left alone, as on x86-64: emulated GPU threads never change it.
// Compiled to nothing on other architectures (a universal macOS build compiles every file for each).
#include "fiber_switch.hpp"

#if defined(__aarch64__)

#include <stdint.h>

#include "asm_directives.hpp"

extern "C" gpulab::emu::fiber::transfer gpulab_fiber_jump(gpulab::emu::fiber::context to, void* data);
extern "C" void gpulab_fiber_trampoline();

// Frame layout at a suspended context (sp, 16-byte aligned, 0xa0 bytes): 0x00 d8..d15,
// 0x40 x19..x28, 0x90 x29 (fp), 0x98 x30 (lr, where the fiber resumes). Arguments: x0 = target,
// x1 = data; returns the transfer {x0 = the suspended caller, x1 = data} to whoever is resumed.
// It leaves with `ret` through the restored x30, so that, as on x86-64, the return-address
// predictor stays in step with the `bl` that suspended the resumed fiber.
// A new fiber's frame (make) holds the entry function in x19, a zero frame pointer (the end of
// the frame chain for unwinders and debuggers) and the trampoline as x30: the trampoline calls
// the entry function with the transfer still in x0 and x1, and traps should it ever return.
asm(GPULAB_ASM_FUNCTION(gpulab_fiber_jump) R"(
  sub   sp, sp, #0xa0
  stp   d8, d9, [sp, #0x00]
  stp   d10, d11, [sp, #0x10]
  stp   d12, d13, [sp, #0x20]
  stp   d14, d15, [sp, #0x30]
  stp   x19, x20, [sp, #0x40]
  stp   x21, x22, [sp, #0x50]
  stp   x23, x24, [sp, #0x60]
  stp   x25, x26, [sp, #0x70]
  stp   x27, x28, [sp, #0x80]
  stp   x29, x30, [sp, #0x90]
  mov   x2, sp
  mov   sp, x0
  ldp   d8, d9, [sp, #0x00]
  ldp   d10, d11, [sp, #0x10]
  ldp   d12, d13, [sp, #0x20]
  ldp   d14, d15, [sp, #0x30]
  ldp   x19, x20, [sp, #0x40]
  ldp   x21, x22, [sp, #0x50]
  ldp   x23, x24, [sp, #0x60]
  ldp   x25, x26, [sp, #0x70]
  ldp   x27, x28, [sp, #0x80]
  ldp   x29, x30, [sp, #0x90]
  add   sp, sp, #0xa0
  mov   x0, x2
  ret
)" GPULAB_ASM_FUNCTION_END(gpulab_fiber_jump) GPULAB_ASM_FUNCTION(gpulab_fiber_trampoline) R"(
  blr   x19
  brk   #0x3e8
)" GPULAB_ASM_FUNCTION_END(gpulab_fiber_trampoline) GPULAB_ASM_FILE_END);

namespace gpulab::emu::fiber {

namespace {
constexpr size_t kFrameBytes = 0xa0;
constexpr size_t kX19 = 0x40 / 8, kX29 = 0x90 / 8, kX30 = 0x98 / 8;
}  // namespace

context make(void* top, size_t, entry_fn fn) {
  // sp stays 16-byte aligned at every step (the architecture may check it): the frame is a
  // multiple of 16 bytes below an aligned top, and the entry function starts at that top.
  const auto sp = (reinterpret_cast<uintptr_t>(top) & ~uintptr_t{15}) - kFrameBytes;
  auto* frame = reinterpret_cast<uintptr_t*>(sp);
  for (size_t i = 0; i < kFrameBytes / 8; ++i) frame[i] = 0;
  frame[kX19] = reinterpret_cast<uintptr_t>(fn);
  frame[kX29] = 0;
  frame[kX30] = reinterpret_cast<uintptr_t>(&gpulab_fiber_trampoline);
  return frame;
}

transfer jump(context to, void* data) { return gpulab_fiber_jump(to, data); }

}  // namespace gpulab::emu::fiber

#endif
