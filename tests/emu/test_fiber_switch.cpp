// The fiber switch itself (grader/emu/src/fiber_switch_*.cpp), on the architecture it is built
// for: fibers start in their entry function with the data passed, resume where they left off, and
// every register the ABI makes callee-saved survives a round trip through a fiber that clobbers
// them all (System V x86-64: rbx, rbp, r12-r15; AAPCS64: x19-x28, d8-d15). Run natively and, for
// AArch64, under qemu-user (tests/platforms/arm64_qemu.sh).
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "asm_directives.hpp"
#include "fiber_switch.hpp"

namespace fiber = gpulab::emu::fiber;

namespace {
long total = 0;

void counting_entry(fiber::transfer t) {
  for (;;) {
    total += reinterpret_cast<intptr_t>(t.data);
    t = fiber::jump(t.from, reinterpret_cast<void*>(total));
  }
}
}  // namespace

TEST_CASE("fiber switch: a fiber starts with the data passed and resumes where it left off") {
  std::vector<char> stack(64 * 1024);
  total = 0;
  fiber::context f = fiber::make(stack.data() + stack.size(), stack.size(), counting_entry);
  for (intptr_t i = 1; i <= 1000; ++i) {
    const fiber::transfer t = fiber::jump(f, reinterpret_cast<void*>(i));
    f = t.from;
    REQUIRE(reinterpret_cast<intptr_t>(t.data) == i * (i + 1) / 2);
  }
}

TEST_CASE("fiber switch: a new fiber's stack is 16-byte aligned in its entry function") {
  for (size_t misalign : {0, 1, 8, 15}) {
    std::vector<char> stack(64 * 1024 + 32);
    static uintptr_t seen;
    auto entry = [](fiber::transfer t) {
      alignas(16) volatile char probe[16];
      seen = reinterpret_cast<uintptr_t>(&probe[0]);
      fiber::jump(t.from, nullptr);
    };
    fiber::context f = fiber::make(stack.data() + stack.size() - misalign, stack.size() - 32, entry);
    fiber::jump(f, nullptr);
    CHECK(seen % 16 == 0);
  }
}

// A round trip through a fiber that overwrites every callee-saved register: the caller's values
// must come back. Both sides are written in assembly, so that no compiler-saved copy hides a
// register the switch forgot. gpulab_test_round_trip(to) returns a bit per register that changed.
extern "C" uint64_t gpulab_test_round_trip(fiber::context to);
extern "C" void gpulab_test_clobbering_entry(fiber::transfer);

#if defined(__x86_64__)
// Saves its own callee-saved registers, loads patterns, calls the switch, compares, restores.
asm(GPULAB_ASM_FUNCTION(gpulab_test_round_trip) R"(
  pushq %rbx
  pushq %rbp
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq  $8, %rsp
  movabsq $0x1111111111111111, %rbx
  movabsq $0x2222222222222222, %rbp
  movabsq $0x3333333333333333, %r12
  movabsq $0x4444444444444444, %r13
  movabsq $0x5555555555555555, %r14
  movabsq $0x6666666666666666, %r15
  xorl  %esi, %esi
  call  )" GPULAB_ASM_SYMBOL(gpulab_fiber_jump) R"(
  xorl  %eax, %eax
  movabsq $0x1111111111111111, %rcx
  cmpq  %rcx, %rbx
  setne %cl
  orb   %cl, %al
  movabsq $0x2222222222222222, %rcx
  cmpq  %rcx, %rbp
  setne %cl
  shlb  $1, %cl
  orb   %cl, %al
  movabsq $0x3333333333333333, %rcx
  cmpq  %rcx, %r12
  setne %cl
  shlb  $2, %cl
  orb   %cl, %al
  movabsq $0x4444444444444444, %rcx
  cmpq  %rcx, %r13
  setne %cl
  shlb  $3, %cl
  orb   %cl, %al
  movabsq $0x5555555555555555, %rcx
  cmpq  %rcx, %r14
  setne %cl
  shlb  $4, %cl
  orb   %cl, %al
  movabsq $0x6666666666666666, %rcx
  cmpq  %rcx, %r15
  setne %cl
  shlb  $5, %cl
  orb   %cl, %al
  addq  $8, %rsp
  popq  %r15
  popq  %r14
  popq  %r13
  popq  %r12
  popq  %rbp
  popq  %rbx
  ret
)" GPULAB_ASM_FUNCTION_END(gpulab_test_round_trip) GPULAB_ASM_FUNCTION(gpulab_test_clobbering_entry) R"(
  movq  $-1, %rbx
  movq  $-1, %rbp
  movq  $-1, %r12
  movq  $-1, %r13
  movq  $-1, %r14
  movq  $-1, %r15
  xorl  %esi, %esi
  call  )" GPULAB_ASM_SYMBOL(gpulab_fiber_jump) R"(
  ud2
)" GPULAB_ASM_FUNCTION_END(gpulab_test_clobbering_entry) GPULAB_ASM_FILE_END);
constexpr int kRegisters = 6;
#elif defined(__aarch64__)
// x19-x28 get 0x19..0x28 and d8-d15 get 8..15 (as integers); the entry sets them all to -1.
// The result has bits 0-9 for x19-x28 and bits 10-17 for d8-d15.
asm(GPULAB_ASM_FUNCTION(gpulab_test_round_trip) R"(
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
  mov   x19, #0x19
  mov   x20, #0x20
  mov   x21, #0x21
  mov   x22, #0x22
  mov   x23, #0x23
  mov   x24, #0x24
  mov   x25, #0x25
  mov   x26, #0x26
  mov   x27, #0x27
  mov   x28, #0x28
  mov   x9, #8
  fmov  d8, x9
  mov   x9, #9
  fmov  d9, x9
  mov   x9, #10
  fmov  d10, x9
  mov   x9, #11
  fmov  d11, x9
  mov   x9, #12
  fmov  d12, x9
  mov   x9, #13
  fmov  d13, x9
  mov   x9, #14
  fmov  d14, x9
  mov   x9, #15
  fmov  d15, x9
  mov   x1, #0
  bl    )" GPULAB_ASM_SYMBOL(gpulab_fiber_jump) R"(
  mov   x0, #0
  mov   x10, #1
  cmp   x19, #0x19
  csel  x11, xzr, x10, eq
  orr   x0, x0, x11
  cmp   x20, #0x20
  csel  x11, xzr, x10, eq
  orr   x0, x0, x11, lsl #1
  cmp   x21, #0x21
  csel  x11, xzr, x10, eq
  orr   x0, x0, x11, lsl #2
  cmp   x22, #0x22
  csel  x11, xzr, x10, eq
  orr   x0, x0, x11, lsl #3
  cmp   x23, #0x23
  csel  x11, xzr, x10, eq
  orr   x0, x0, x11, lsl #4
  cmp   x24, #0x24
  csel  x11, xzr, x10, eq
  orr   x0, x0, x11, lsl #5
  cmp   x25, #0x25
  csel  x11, xzr, x10, eq
  orr   x0, x0, x11, lsl #6
  cmp   x26, #0x26
  csel  x11, xzr, x10, eq
  orr   x0, x0, x11, lsl #7
  cmp   x27, #0x27
  csel  x11, xzr, x10, eq
  orr   x0, x0, x11, lsl #8
  cmp   x28, #0x28
  csel  x11, xzr, x10, eq
  orr   x0, x0, x11, lsl #9
  fmov  x9, d8
  cmp   x9, #8
  csel  x11, xzr, x10, eq
  orr   x0, x0, x11, lsl #10
  fmov  x9, d9
  cmp   x9, #9
  csel  x11, xzr, x10, eq
  orr   x0, x0, x11, lsl #11
  fmov  x9, d10
  cmp   x9, #10
  csel  x11, xzr, x10, eq
  orr   x0, x0, x11, lsl #12
  fmov  x9, d11
  cmp   x9, #11
  csel  x11, xzr, x10, eq
  orr   x0, x0, x11, lsl #13
  fmov  x9, d12
  cmp   x9, #12
  csel  x11, xzr, x10, eq
  orr   x0, x0, x11, lsl #14
  fmov  x9, d13
  cmp   x9, #13
  csel  x11, xzr, x10, eq
  orr   x0, x0, x11, lsl #15
  fmov  x9, d14
  cmp   x9, #14
  csel  x11, xzr, x10, eq
  orr   x0, x0, x11, lsl #16
  fmov  x9, d15
  cmp   x9, #15
  csel  x11, xzr, x10, eq
  orr   x0, x0, x11, lsl #17
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
  ret
)" GPULAB_ASM_FUNCTION_END(gpulab_test_round_trip) GPULAB_ASM_FUNCTION(gpulab_test_clobbering_entry) R"(
  mov   x9, #-1
  mov   x19, x9
  mov   x20, x9
  mov   x21, x9
  mov   x22, x9
  mov   x23, x9
  mov   x24, x9
  mov   x25, x9
  mov   x26, x9
  mov   x27, x9
  mov   x28, x9
  fmov  d8, x9
  fmov  d9, x9
  fmov  d10, x9
  fmov  d11, x9
  fmov  d12, x9
  fmov  d13, x9
  fmov  d14, x9
  fmov  d15, x9
  mov   x1, #0
  bl    )" GPULAB_ASM_SYMBOL(gpulab_fiber_jump) R"(
  brk   #0x3e8
)" GPULAB_ASM_FUNCTION_END(gpulab_test_clobbering_entry) GPULAB_ASM_FILE_END);
constexpr int kRegisters = 18;
#endif

#if defined(__x86_64__) || defined(__aarch64__)
TEST_CASE("fiber switch: every callee-saved register survives a fiber that clobbers them all") {
  std::vector<char> stack(64 * 1024);
  fiber::context f = fiber::make(stack.data() + stack.size(), stack.size(), gpulab_test_clobbering_entry);
  const uint64_t changed = gpulab_test_round_trip(f);
  INFO("registers changed (bit per register, " << kRegisters << " checked): 0x" << std::hex << changed);
  CHECK(changed == 0);
}
#endif
