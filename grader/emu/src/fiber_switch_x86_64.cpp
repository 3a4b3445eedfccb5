// The fiber switch for x86-64 (System V ABI; ELF and Mach-O), written by hand: Boost.Context's
// jump_fcontext also saves and restores the x87 and SSE control words on every switch, which
// measured as three quarters of its cost, and emulated GPU threads never change them.
// Compiled to nothing on other architectures (a universal macOS build compiles every file for each).
#include "fiber_switch.hpp"

#if defined(__x86_64__)

#include <stdint.h>

#include "asm_directives.hpp"

extern "C" gpulab::emu::fiber::transfer gpulab_fiber_jump(gpulab::emu::fiber::context to, void* data);
extern "C" void gpulab_fiber_trampoline();

// Frame layout at a suspended context (rsp): 0x08 r12, 0x10 r13, 0x18 r14, 0x20 r15,
// 0x28 rbx, 0x30 rbp, 0x38 return address. Arguments: rdi = target, rsi = data;
// returns {rax = the suspended caller, rdx = data} to whoever is resumed.
// It leaves with `ret`, not an indirect jump: the resumed fiber was suspended
// by the same kind of `call`, so the CPU's return-address predictor stays in
// step (an indirect jump here made every later `ret` mispredict: 2.5x slower).
// A new fiber's frame (make) holds the entry function in rbx and returns into the trampoline,
// which calls it with the transfer {rdi = from, rsi = data}.
asm(GPULAB_ASM_FUNCTION(gpulab_fiber_jump) R"(
  leaq  -0x38(%rsp), %rsp
  movq  %r12, 0x08(%rsp)
  movq  %r13, 0x10(%rsp)
  movq  %r14, 0x18(%rsp)
  movq  %r15, 0x20(%rsp)
  movq  %rbx, 0x28(%rsp)
  movq  %rbp, 0x30(%rsp)
  movq  %rsp, %rax
  movq  %rdi, %rsp
  movq  0x08(%rsp), %r12
  movq  0x10(%rsp), %r13
  movq  0x18(%rsp), %r14
  movq  0x20(%rsp), %r15
  movq  0x28(%rsp), %rbx
  movq  0x30(%rsp), %rbp
  leaq  0x38(%rsp), %rsp
  movq  %rsi, %rdx
  movq  %rax, %rdi
  ret
)" GPULAB_ASM_FUNCTION_END(gpulab_fiber_jump) GPULAB_ASM_FUNCTION(gpulab_fiber_trampoline) R"(
  movq  %rdx, %rsi
  callq *%rbx
  ud2
)" GPULAB_ASM_FUNCTION_END(gpulab_fiber_trampoline) GPULAB_ASM_FILE_END);

namespace gpulab::emu::fiber {

context make(void* top, size_t, entry_fn fn) {
  auto sp = reinterpret_cast<uintptr_t>(top) & ~uintptr_t{15};
  sp -= 0x40 + 16;  // the frame, plus room so the entry's frame starts 16-byte aligned
  auto* frame = reinterpret_cast<uintptr_t*>(sp);
  for (size_t i = 0; i < 0x40 / 8; ++i) frame[i] = 0;
  frame[0x28 / 8] = reinterpret_cast<uintptr_t>(fn);  // restored into rbx
  frame[0x38 / 8] = reinterpret_cast<uintptr_t>(&gpulab_fiber_trampoline);
  return frame;
}

transfer jump(context to, void* data) { return gpulab_fiber_jump(to, data); }

}  // namespace gpulab::emu::fiber

#endif
