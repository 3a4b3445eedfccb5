// What a memory fault's signal context says, read from each architecture's ucontext: where the
// faulting instruction is (pc), the address it touched, and whether it read or wrote.
// x86-64 and AArch64, Linux and macOS. A guard page answers with SIGSEGV on Linux and SIGBUS on
// macOS, so a fault handler installs itself for both (kFaultSignals).
#pragma once
#include <signal.h>

#include <cstdint>

namespace gpulab::platform {

inline constexpr int kFaultSignals[] = {SIGSEGV, SIGBUS};

enum class FaultAccess { unknown, read, write };

struct FaultContext {
  uintptr_t pc = 0;               // the faulting instruction; 0 when the context has no pc
  const void* address = nullptr;  // the address the instruction touched (si_addr)
  FaultAccess access = FaultAccess::unknown;
};

// `raw_context` is the handler's third argument (SA_SIGINFO). Async-signal-safe: reads only.
FaultContext read_fault_context(const siginfo_t* info, const void* raw_context);

// "read" / "write" / "access".
const char* access_word(FaultAccess access);

}  // namespace gpulab::platform
