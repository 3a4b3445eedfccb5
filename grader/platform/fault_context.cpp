// read_fault_context() for x86-64 and AArch64, on Linux and macOS.
//   Linux x86-64: gregs[REG_RIP]; the page-fault error code gregs[REG_ERR], bit 1 set for a write.
//   Linux AArch64: mcontext pc; the exception syndrome (ESR) from the esr_context record the
//     kernel puts among the records in __reserved: a data abort (EC 0x24/0x25) with WnR (bit 6)
//     set is a write.
//   macOS: uc_mcontext points at the thread and exception state: __ss.__rip / __ss.__pc and
//     __es.__err (x86-64, as Linux's error code) / __es.__esr (arm64, as Linux's ESR).
#include "platform/fault_context.hpp"

#include <ucontext.h>

#if defined(__linux__) && defined(__aarch64__)
#include <asm/sigcontext.h>
#endif

namespace gpulab::platform {
namespace {
[[maybe_unused]] FaultAccess from_x86_error_code(uint64_t code) {
  return (code & 2) ? FaultAccess::write : FaultAccess::read;
}
// Without a syndrome (qemu-user's signal frames have none, nor do kernels before 4.16), the
// faulting AArch64 instruction itself says it: its load/store class's L bit or opc field.
[[maybe_unused]] FaultAccess from_arm_instruction(uint32_t insn) {
  if ((insn & 0x0a000000) != 0x08000000) return FaultAccess::unknown;  // not a load or store
  const uint32_t op = (insn >> 27) & 7;                                // bits 29:27
  const bool load_bit = (insn >> 22) & 1;  // L for pairs and exclusives, opc<0> for single registers
  if (op == 7) {                           // load/store register (any addressing mode)
    const bool atomic = !((insn >> 24) & 1) && ((insn >> 21) & 1) && ((insn >> 10) & 3) == 0 && !((insn >> 26) & 1);
    if (atomic) return FaultAccess::write;  // LDADD, SWP, CAS...: a read and a write
    const uint32_t opc = (insn >> 22) & 3;
    const bool vector = (insn >> 26) & 1;
    const bool store = opc == 0 || (vector && opc == 2 && (insn >> 30) == 0);  // STR, or STR of a Q register
    return store ? FaultAccess::write : FaultAccess::read;
  }
  if (op == 5 || op == 1) return load_bit ? FaultAccess::read : FaultAccess::write;  // pairs, exclusives
  return FaultAccess::unknown;
}
[[maybe_unused]] FaultAccess from_arm_syndrome(uint64_t esr) {
  const uint64_t ec = esr >> 26;                              // exception class
  if (ec != 0x24 && ec != 0x25) return FaultAccess::unknown;  // not a data abort
  return (esr & (uint64_t{1} << 6)) ? FaultAccess::write : FaultAccess::read;
}
}  // namespace

FaultContext read_fault_context(const siginfo_t* info, const void* raw_context) {
  FaultContext f;
  f.address = info ? info->si_addr : nullptr;
  if (!raw_context) return f;
  const auto* uc = static_cast<const ucontext_t*>(raw_context);
#if defined(__linux__) && defined(__x86_64__)
  f.pc = static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RIP]);
  f.access = from_x86_error_code(static_cast<uint64_t>(uc->uc_mcontext.gregs[REG_ERR]));
#elif defined(__linux__) && defined(__aarch64__)
  f.pc = static_cast<uintptr_t>(uc->uc_mcontext.pc);
  // The records: each starts with {magic, size}; a zero magic ends them.
  const unsigned char* p = reinterpret_cast<const unsigned char*>(uc->uc_mcontext.__reserved);
  const unsigned char* end = p + sizeof uc->uc_mcontext.__reserved;
  while (p + sizeof(_aarch64_ctx) <= end) {
    const auto* head = reinterpret_cast<const _aarch64_ctx*>(p);
    if (head->magic == 0 || head->size < sizeof(_aarch64_ctx)) break;
    if (head->magic == ESR_MAGIC && head->size >= sizeof(esr_context)) {
      f.access = from_arm_syndrome(reinterpret_cast<const esr_context*>(p)->esr);
      break;
    }
    p += head->size;
  }
  if (f.access == FaultAccess::unknown && f.pc)
    f.access = from_arm_instruction(*reinterpret_cast<const uint32_t*>(f.pc));
#elif defined(__APPLE__) && defined(__x86_64__)
  f.pc = static_cast<uintptr_t>(uc->uc_mcontext->__ss.__rip);
  f.access = from_x86_error_code(uc->uc_mcontext->__es.__err);
#elif defined(__APPLE__) && defined(__aarch64__)
  f.pc = static_cast<uintptr_t>(__darwin_arm_thread_state64_get_pc(uc->uc_mcontext->__ss));
  f.access = from_arm_syndrome(uc->uc_mcontext->__es.__esr);
#else
  (void)uc;  // another platform: the address alone
#endif
  return f;
}

const char* access_word(FaultAccess access) {
  switch (access) {
    case FaultAccess::read: return "read";
    case FaultAccess::write: return "write";
    default: return "access";
  }
}

}  // namespace gpulab::platform
