// clock() in kernels. On a GPU it reads the SM's cycle counter; here a kernel's
// clock() reads the same monotonic nanosecond counter as clock64(), while host
// code keeps the C library's processor-time clock(). The call is routed by a
// function-like macro, so <ctime> must already be included (cuda_emulation.hpp
// includes this header after it) and std::clock() works as well.
#pragma once
#include <ctime>

#include "gpulab/emu/device_math.hpp"
#include "gpulab/emu/execution_context.hpp"

inline clock_t gpulab_emu_clock() {
  return gpulab_emu_thread ? static_cast<clock_t>(gpulab::emu::device_clock()) : ::clock();
}
namespace std {
using ::gpulab_emu_clock;
}  // namespace std
#define clock() gpulab_emu_clock()
