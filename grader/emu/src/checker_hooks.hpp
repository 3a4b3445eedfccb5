// How the checking runtime (the --race-check build, grader/emu/check/) learns
// what the emulator is doing. The pointer is null unless that runtime is linked
// in; every call site tests it, so the plain build pays one load per event.
#pragma once
#include <cstddef>

namespace gpulab::emu {

struct LaunchState;
class BlockRunner;

struct CheckerHooks {
  void (*launch_begin)(const LaunchState& launch);
  void (*launch_end)(const LaunchState& launch);
  // A block starts: its dynamic shared memory is [shared, shared + dynamic_bytes), uninitialised.
  void (*block_begin)(const BlockRunner& runner, unsigned char* shared, size_t dynamic_bytes);
  void (*block_end)(const BlockRunner& runner);
  // Every thread of the running block passed a __syncthreads(): the barrier epoch advanced.
  void (*barrier_released)(const BlockRunner& runner);
  // A warp collective completed for the lanes in `mask` of warp `warp` (they synchronised).
  void (*warp_synchronised)(const BlockRunner& runner, unsigned warp, unsigned mask);
  // A __shared__ variable declared at file:line now lives at [p, p + bytes), uninitialised.
  void (*shared_allocated)(const BlockRunner& runner, void* p, size_t bytes, const char* file, int line);
  void (*thread_fence)(const BlockRunner& runner);
  // Launches run their blocks one at a time while a checker is installed.
  bool serialise_blocks;
  // The checker reports a kernel's accesses to host memory itself, at the access (the race check).
  bool checks_host_accesses = false;
};

extern CheckerHooks* checker_hooks;

}  // namespace gpulab::emu
