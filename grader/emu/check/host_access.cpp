// host_access.hpp: where a checked kernel's non-device, non-shared accesses land. The common ones
// (its locals, the emulator's context, the arguments) are told apart with a few comparisons; a
// mapping lookup follows only for the rest.
#include "host_access.hpp"

#include <cstdlib>
#include <mutex>
#include <string>
#include <unordered_map>

#include "findings.hpp"
#include "gpulab/emu/execution_context.hpp"
#include "block_runner.hpp"
#include "code_location.hpp"
#include "launch_state.hpp"
#include "messages.hpp"

namespace gpulab::emu::check {
namespace {
bool within(uintptr_t a, uintptr_t begin, uintptr_t end) { return a >= begin && a < end; }
template <class T> bool inside(uintptr_t a, const T* object) {
  const auto p = reinterpret_cast<uintptr_t>(object);
  return object && a >= p && a < p + sizeof(T);
}
// Whether the access is made by the C++ library's or the emulator's own inline code compiled into the
// program's file with its kernels (say, a per-thread table of asynchronous copies growing on the
// heap of the thread that runs the blocks), not by the program's: by where the code is, remembered
// per call site (finding it can take a symbolizer's run).
bool library_code(uintptr_t pc) {
  static std::mutex known_mutex;
  static std::unordered_map<uintptr_t, bool> known;
  {
    std::lock_guard<std::mutex> lock(known_mutex);
    if (const auto it = known.find(pc); it != known.end()) return it->second;
  }
  const std::string where = code_location(pc);
  const auto starts = [&](const char* p) { return where.rfind(p, 0) == 0; };
  const bool library = starts("in std::") || starts("in __gnu_cxx::") || starts("in gpulab::emu::") ||
                       starts("in __pipeline_") || where.find("/include/c++/") != std::string::npos ||
                       where.find("/gpulab/emu/") != std::string::npos;
  std::lock_guard<std::mutex> lock(known_mutex);
  known[pc] = library;
  return library;
}
}  // namespace

void begin_host_checks(Session& s, const LaunchState& launch) {
  s.host_map.read();
  const auto here = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
  const auto [begin, end] = s.host_map.mapping_of(here);
  s.own_stack_begin = begin;
  s.own_stack_end = end;
  s.closure_begin = reinterpret_cast<uintptr_t>(launch.body.closure);
  s.closure_end = s.closure_begin + launch.body.closure_bytes;
  // The emulator's own objects that code compiled with the kernel touches (a barrier's or a
  // group's state, the block's runner) are made on this thread, the one that runs checked blocks:
  // glibc gives it an arena of its own, a heap of at most 64 MiB aligned to its size. The
  // program's host memory comes from its own threads' arenas (the main one: [heap]).
  s.arena_begin = s.arena_end = 0;
  if (void* probe = std::malloc(1)) {
    const auto p = reinterpret_cast<uintptr_t>(probe);
    if (s.host_map.region_of(p) == HostRegion::anonymous) {
      constexpr uintptr_t kArenaHeapBytes = uintptr_t{64} << 20;
      s.arena_begin = p & ~(kArenaHeapBytes - 1);
      s.arena_end = s.arena_begin + kArenaHeapBytes;
    }
    std::free(probe);
  }
  s.running_stack_begin = s.running_stack_end = 0;
}

void check_host_access(Session& s, uintptr_t a, size_t size, bool write, uint16_t thread, uintptr_t pc) {
  if (within(a, s.running_stack_begin, s.running_stack_end) || within(a, s.own_stack_begin, s.own_stack_end) ||
      within(a, s.closure_begin, s.closure_end) || within(a, s.arena_begin, s.arena_end) || inside(a, s.runner) ||
      inside(a, gpulab_emu_thread) || inside(a, gpulab_emu_block) || inside(a, gpulab_emu_launch)) {
    return;
  }
  const HostRegion region = s.host_map.region_of(a);
  if (region == HostRegion::none || region == HostRegion::variable) return;
  // The stack this GPU thread runs on (the checker runs on it too): its locals.
  const auto [begin, end] = s.host_map.mapping_of(reinterpret_cast<uintptr_t>(__builtin_frame_address(0)));
  if (within(a, begin, end)) {
    s.running_stack_begin = begin;
    s.running_stack_end = end;
    return;
  }
  if (gpu_reachable(reinterpret_cast<const void*>(a))) return;  // page-locked, registered, the device heap
  if (in_runtime_thread_heap(a) || library_code(pc - 1)) return;
  if (!s.findings.admit(FindingKind::host_memory, code_offset(pc))) return;
  report_host_access(s, a, size, write, region, thread, pc - 1);
}

}  // namespace gpulab::emu::check
