// Where the profiler meets the instrumented code: each access of a GPU thread
// of the running block to shared or global (device) memory is logged for
// grouping (profiler.hpp); accesses to its stack and to host memory are not
// memory traffic a profiler would count and are dropped here.
#include "profile_entry.hpp"

#include "access.hpp"
#include "block_runner.hpp"
#include "session.hpp"

namespace gpulab::emu::check {

void profile_access(uintptr_t address, size_t size, uint8_t flags, uintptr_t pc) {
  Session& s = *tl_session;
  const ThreadContext* t = s.runner ? s.runner->running_context() : nullptr;
  if (!t || size == 0 || !s.profiling_block) return;
  // A failed compare-and-swap, and the plain load that starts a CAS loop (float atomicAdd on
  // the emulator), are not requests of their own on a GPU: only completed updates count.
  if ((flags & kAtomic) && !(flags & kWrite)) return;
  const bool shared = address - s.shared_base < s.shared_limit;
  if (!shared && !s.global.allocation(address)) return;
  s.profiler.log(t->linear, address, size, flags, code_offset(pc), shared);
}

}  // namespace gpulab::emu::check
