// SIGSEGV/SIGBUS handling for GPU threads (a guard page faults with SIGSEGV on Linux, SIGBUS on
// macOS), and for host code that touched device memory (host_fault.hpp); the fault's address, pc
// and access come from platform/fault_context.hpp.
#include "fault_handler.hpp"

#include <signal.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <string>

#include "block_runner.hpp"
#include "device_memory.hpp"
#include "diagnostics.hpp"
#include "host_fault.hpp"
#include "platform/fault_context.hpp"

namespace gpulab::emu {
namespace {
__thread sigjmp_buf recovery;
__thread bool recovery_armed = false;
__thread bool altstack_ready = false;

std::string describe_fault(const void* address, platform::FaultAccess kind, BlockRunner& r) {
  const char* access = platform::access_word(kind);
  const auto a = reinterpret_cast<uintptr_t>(address);
  if (r.owns_stack_address(address)) {
    return "stack overflow: the emulator gives each GPU thread a 64 KiB stack; keep large arrays in shared or "
           "global memory rather than in local variables (a GPU spills them to slow local memory), and avoid deep "
           "recursion";
  }
  const AddressInfo info = classify_address(address);
  const std::string alloc = "the " + std::to_string(info.allocation.size) + "-byte allocation made by " +
                            info.allocation.api + " at " + info.allocation.origin;
  switch (info.kind) {
    case AddressInfo::Kind::after:
      return std::string("out-of-bounds ") + access + " " +
             std::to_string(info.offset - static_cast<long long>(info.allocation.size)) + " bytes past the end of " +
             alloc + " (byte offset " + std::to_string(info.offset) +
             "); check the bounds test on the index (e.g. `if (i < n)`)";
    case AddressInfo::Kind::before:
      return std::string("out-of-bounds ") + access + " " + std::to_string(-info.offset) +
             " bytes before the start of " + alloc + "; check for a negative index (halo or ghost cells?)";
    default: break;
  }
  if (a < 65536) {
    return std::string("illegal ") + access + " at address " + std::to_string(a) +
           ": a null (or nearly null) pointer was dereferenced; was the pointer passed to the kernel allocated?";
  }
  return std::string("illegal ") + access + " at an address that is not in any live device allocation " +
         "(freed memory, a host pointer, or an index far out of bounds)";
}

void on_fault(int sig, siginfo_t* info, void* raw_context) {
  BlockRunner* r = running_block_runner();
  if (!r || !recovery_armed || !r->launch()) {
    // Not a GPU thread: host code. Device memory it touched is reported (host_fault.hpp); then, and
    // for any other fault, the fault happens as it would without us (as on a GPU: the process ends).
    static std::atomic<bool> reported{false};
    const bool device_memory = !reported.exchange(true) && report_host_device_access(info, raw_context);
    signal(sig, SIG_DFL);
    // Retried, the access might now succeed (device memory opened meanwhile for a kernel: toggled
    // protection); the fault is taken here instead, as a GPU takes it.
    if (device_memory) raise(sig);
    return;
  }
  const platform::FaultContext fault = platform::read_fault_context(info, raw_context);
  const LaunchState& launch = *r->launch();
  Diagnostic d;
  d.kind = r->owns_stack_address(fault.address) ? "stack-overflow" : "out-of-bounds";
  d.severity = "error";
  d.kernel = launch.request.kernel_name;
  d.file = launch.request.file;
  d.line = launch.request.line;
  d.block = r->block_label();
  d.threads = r->running_thread_label();
  d.message = describe_fault(fault.address, fault.access, *r) + ", in " + launch.where() + ", block " + d.block +
              ", thread " + d.threads + ".";
  report(std::move(d), cudaErrorIllegalAddress);
  const_cast<LaunchState&>(launch).aborted.store(true);
  r->reset_after_fault();
  siglongjmp(recovery, 1);
}
}  // namespace

void install_fault_handler_for_this_thread() {
  install_fault_handler();
  if (!altstack_ready) {
    stack_t ss{};
    ss.ss_size = 64 * 1024;
    ss.ss_sp = std::malloc(ss.ss_size);  // lives as long as the thread
    sigaltstack(&ss, nullptr);
    altstack_ready = true;
  }
}

void install_fault_handler() {
  // Checked at every launch: a test framework or the program may have replaced the handler since.
  for (int sig : platform::kFaultSignals) {
    struct sigaction current {};
    sigaction(sig, nullptr, &current);
    if ((current.sa_flags & SA_SIGINFO) && current.sa_sigaction == &on_fault) continue;
    struct sigaction sa {};
    sa.sa_sigaction = &on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, nullptr);
  }
}

sigjmp_buf* worker_recovery_point() { return &recovery; }
void set_recovery_armed(bool armed) { recovery_armed = armed; }

}  // namespace gpulab::emu
