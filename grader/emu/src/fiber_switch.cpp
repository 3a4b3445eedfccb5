// Fiber context switch: hand-written for x86-64 (System V ABI), Boost.Context otherwise.
#include "fiber_switch.hpp"

#include <cstdint>
#include <cstring>

#if defined(__x86_64__) && !defined(GPULAB_USE_BOOST_FCONTEXT)

extern "C" gpulab::emu::fiber::transfer gpulab_fiber_jump(gpulab::emu::fiber::context to, void* data);
extern "C" void gpulab_fiber_trampoline();

// Frame layout at a suspended context (rsp): 0x08 r12, 0x10 r13, 0x18 r14, 0x20 r15,
// 0x28 rbx, 0x30 rbp, 0x38 return address. Arguments: rdi = target, rsi = data;
// returns {rax = the suspended caller, rdx = data} to whoever is resumed.
// It leaves with `ret`, not an indirect jump: the resumed fiber was suspended
// by the same kind of `call`, so the CPU's return-address predictor stays in
// step (an indirect jump here made every later `ret` mispredict: 2.5x slower).
asm(R"(
  .text
  .globl gpulab_fiber_jump
  .type gpulab_fiber_jump,@function
  .align 16
gpulab_fiber_jump:
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
  .size gpulab_fiber_jump,.-gpulab_fiber_jump

  .globl gpulab_fiber_trampoline
  .type gpulab_fiber_trampoline,@function
  .align 16
gpulab_fiber_trampoline:
  movq  %rdx, %rsi
  callq *%rbx
  ud2
  .size gpulab_fiber_trampoline,.-gpulab_fiber_trampoline
  .section .note.GNU-stack,"",@progbits
  .text
)");

namespace gpulab::emu::fiber {

context make(void* top, size_t, entry_fn fn) {
  auto sp = reinterpret_cast<uintptr_t>(top) & ~uintptr_t{15};
  sp -= 0x40 + 16;  // the frame, plus room so the entry's frame starts 16-byte aligned
  auto* frame = reinterpret_cast<uintptr_t*>(sp);
  std::memset(frame, 0, 0x40);
  frame[0x28 / 8] = reinterpret_cast<uintptr_t>(fn);  // restored into rbx
  frame[0x38 / 8] = reinterpret_cast<uintptr_t>(&gpulab_fiber_trampoline);
  return frame;
}

transfer jump(context to, void* data) { return gpulab_fiber_jump(to, data); }

}  // namespace gpulab::emu::fiber

#else

#include <boost/context/detail/fcontext.hpp>

namespace gpulab::emu::fiber {
namespace bc = boost::context::detail;

context make(void* top, size_t size, entry_fn fn) {
  return bc::make_fcontext(top, size, reinterpret_cast<void (*)(bc::transfer_t)>(fn));
}
transfer jump(context to, void* data) {
  const bc::transfer_t t = bc::jump_fcontext(static_cast<bc::fcontext_t>(to), data);
  return transfer{t.fctx, t.data};
}

}  // namespace gpulab::emu::fiber

#endif
