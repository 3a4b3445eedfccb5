// The state of one kernel launch shared by the workers that run its blocks.
#pragma once
#include <atomic>
#include <cstddef>
#include <string>

#include "gpulab/emu/execution_context.hpp"
#include "gpulab/emu/kernel_launch.hpp"

namespace gpulab::emu {

struct LaunchState {
  LaunchRequest request;
  KernelBody body;
  LaunchContext context;  // what kernels read through blockDim/gridDim
  unsigned threads_per_block = 0;
  unsigned long long total_blocks = 0;
  size_t shared_limit = 0;  // bytes of shared memory (static + dynamic) a block may use
  // What the workers write, each on a cache line of its own: the fields above are read for
  // every block, and a line that another core keeps writing would be fetched again each time.
  alignas(64) std::atomic<unsigned long long> next_block{0};
  alignas(64) std::atomic<bool> aborted{false};
  // A device-side error (trap, misuse) was reported: as on a GPU, where the first one ends the
  // kernel, the blocks that hit one at the same time on other workers end without another report.
  mutable std::atomic<bool> device_error_reported{false};
  // Device code read a clock, printed or used the device heap: a replay could not give the
  // same results again (launch_replay.hpp), so the launch is not recorded.
  mutable std::atomic<bool> impure{false};

  std::string where() const;  // "kernel 'name' launched at file:line"
};

}  // namespace gpulab::emu
