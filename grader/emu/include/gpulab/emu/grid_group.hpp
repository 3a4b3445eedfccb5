// cooperative_groups::grid_group on the emulator: every thread of the grid,
// synchronised by grid.sync(). Valid only in a kernel launched with
// cudaLaunchCooperativeKernel, which keeps all its blocks resident; the
// emulator then runs the grid's blocks in turns on one worker, each until all
// its threads wait at grid.sync() (see grader/emu/src/README.md). In an
// ordinary launch is_valid() is true, as on a GPU, but sync() is reported as
// an error, as it is undefined there.
#pragma once
#include "gpulab/emu/execution_context.hpp"

namespace gpulab::emu {
bool grid_is_valid();                        // in a kernel (any launch, as on a GPU)
void grid_sync(const char* file, int line);  // reports a sync outside a cooperative launch
}  // namespace gpulab::emu

namespace cooperative_groups {

class grid_group {
 public:
  bool is_valid() const { return gpulab::emu::grid_is_valid(); }
  void sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    gpulab::emu::grid_sync(file, line);
  }
  static unsigned long long num_blocks() { return 1ull * gridDim.x * gridDim.y * gridDim.z; }
  static unsigned long long block_rank() {
    return (1ull * blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  }
  static dim3 block_index() { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  static dim3 dim_blocks() { return gridDim; }
  static dim3 group_dim() { return gridDim; }
  static unsigned long long num_threads() { return num_blocks() * blockDim.x * blockDim.y * blockDim.z; }
  static unsigned long long size() { return num_threads(); }
  static unsigned long long thread_rank() {
    return block_rank() * (blockDim.x * blockDim.y * blockDim.z) + gpulab_emu_thread->linear;
  }
  static dim3 thread_index() {
    return dim3(blockIdx.x * blockDim.x + threadIdx.x, blockIdx.y * blockDim.y + threadIdx.y,
                blockIdx.z * blockDim.z + threadIdx.z);
  }
  static dim3 dim_threads() { return dim3(gridDim.x * blockDim.x, gridDim.y * blockDim.y, gridDim.z * blockDim.z); }
};

inline grid_group this_grid() { return grid_group(); }

}  // namespace cooperative_groups
