// Randomness for the inputs of timed calls, drawn by the harness just before
// each call, so that no input can be known to a submission in advance. It
// comes from the kernel's getrandom system call made directly (not through a
// library function a submission could replace by defining its own).
#pragma once
#include <cstdint>

namespace gpulab::harness {

uint64_t fresh_entropy();

}  // namespace gpulab::harness
