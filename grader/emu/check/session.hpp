// Everything the checker tracks for the launch running on this OS thread (the
// emulator runs blocks one at a time on the launching thread while the checker
// is installed, so none of this is shared between threads): the running block,
// its barrier intervals, warp clocks, fences and shared variables, and the
// shadow state of shared and global memory.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "block_runner.hpp"
#include "findings.hpp"
#include "global_memory.hpp"
#include "host_regions.hpp"
#include "profiler.hpp"
#include "shared_shadow.hpp"
#include "warp_clocks.hpp"

namespace gpulab::emu::check {

// A __shared__ variable or the dynamic shared memory, as offsets into the block's shared memory.
struct SharedRegion {
  size_t begin = 0;
  size_t bytes = 0;
  const char* file = nullptr;  // null: dynamic shared memory (extern __shared__)
  int line = 0;
};

struct Session {
  // The launch.
  const LaunchState* launch = nullptr;
  GlobalMemory global;
  Findings findings;
  std::unordered_map<uint64_t, uint32_t> final_fences;  // (block << 16 | thread) -> __threadfence() count
  // What host memory is, for accesses outside device and shared memory (host_access.hpp): the
  // process's mappings when the launch began, the launching thread's stack (its TLS too), the
  // launch's arguments (the kernel body's closure) and the stack the running GPU thread is on.
  HostMemoryMap host_map;
  uintptr_t own_stack_begin = 0, own_stack_end = 0;
  uintptr_t closure_begin = 0, closure_end = 0;
  uintptr_t arena_begin = 0, arena_end = 0;  // this thread's malloc arena: the emulator's objects
  uintptr_t running_stack_begin = 0, running_stack_end = 0;

  // The running block.
  const BlockRunner* runner = nullptr;
  uint32_t block = 0;  // linear index + 1, as in Access
  uintptr_t shared_base = 0;
  size_t shared_limit = 0;  // bytes the block may use: accesses below it are shared memory
  size_t shared_end = 0;    // bytes allocated so far (dynamic + __shared__ variables)
  std::vector<SharedRegion> shared_regions;
  std::vector<int> barrier_lines;  // barrier_lines[e]: line of the __syncthreads() that began epoch e
  std::vector<uint32_t> fences;    // per thread of the block
  bool block_fenced = false;
  WarpClocks warps;
  SharedShadow shared;
  Profiler profiler;             // used when modes.profile
  bool profiling_block = false;  // the running block is one the profiler samples

  bool fenced_after(uint32_t block_plus_one, uint16_t thread, uint32_t fence_at_access) const;
  const SharedRegion* shared_region(size_t offset) const;
};

// Non-null from the first launch on this thread.
extern __thread Session* tl_session;
// True while a GPU thread of a checked block runs on this OS thread and the
// checker itself is not running: the entry points record accesses only then.
extern __thread bool tl_active;

Session& session();  // creates tl_session

}  // namespace gpulab::emu::check
