// The storage behind the CUDA built-ins gridDim and blockDim. Kernels see them
// as `extern __thread const dim3` (execution_context.hpp), as CUDA declares
// them const; this file alone does not include that declaration, so that the
// runtime can write them when a worker starts running a launch's blocks.
#include "gpulab/emu/vector_types.hpp"

__thread dim3 gridDim;
__thread dim3 blockDim;

namespace gpulab::emu {
void set_launch_dims(const dim3& grid, const dim3& block) {
  gridDim = grid;
  blockDim = block;
}
}  // namespace gpulab::emu
