// Accesses of a checked kernel outside device and shared memory: host memory a GPU cannot reach
// (memory from malloc or new, a host thread's stack, a mapped file: host_regions.hpp) is an
// illegal address on a GPU (an H200 has no HMM), reported at the access with its kernel, block,
// thread and line. The kernel's own memory is not: its stack, the launching thread's stack and
// TLS (blockDim, namespace-scope __shared__ variables), the emulator's context of the running
// thread and block (the block's runner), the launch's arguments, and what the emulator allocates
// while the kernel runs (on the launching thread, in its own malloc arena). Host variables are not told from __device__ ones
// here (both are the program's variables); a launch argument pointing at one is refused instead.
#pragma once
#include <cstddef>
#include <cstdint>

#include "session.hpp"

namespace gpulab::emu::check {

// At a launch's start, on the launching thread: reads the process's mappings.
void begin_host_checks(Session& s, const LaunchState& launch);
void check_host_access(Session& s, uintptr_t address, size_t size, bool write, uint16_t thread, uintptr_t pc);

}  // namespace gpulab::emu::check
