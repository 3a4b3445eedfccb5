// What an emulated GPU thread can see of where it runs: its thread, block and
// launch. The runtime sets these worker-thread-local pointers (and the grid's
// and block's shape) before it switches to a thread's fiber; the CUDA built-in
// variables read them.
#pragma once
#include <cstddef>
#include <type_traits>
#include "gpulab/emu/vector_types.hpp"

namespace gpulab::emu {

struct ThreadContext {
  uint3 thread_idx;
  unsigned linear;  // x + y*bx + z*bx*by, the thread's rank in its block
  unsigned lane() const { return linear % 32; }
  unsigned warp() const { return linear / 32; }
};

struct BlockContext {
  uint3 block_idx;
  unsigned long long generation;  // unique per block run on this worker; 0 means none
  unsigned char* dynamic_shared;  // base of `extern __shared__` memory for this block
  size_t shared_bytes = 0;        // the block's shared memory (dynamic, then __shared__ variables) from there
};

struct LaunchContext {
  dim3 grid_dim;
  dim3 block_dim;
  const char* kernel_name;
  const char* file;
  int line;
  size_t dynamic_shared_bytes;
  bool cooperative = false;  // launched with cudaLaunchCooperativeKernel: grid.sync() may be used
};

}  // namespace gpulab::emu

// __thread (not thread_local) so that access is a plain TLS load, with no wrapper call.
extern __thread gpulab::emu::ThreadContext* gpulab_emu_thread;
extern __thread gpulab::emu::BlockContext* gpulab_emu_block;
extern __thread const gpulab::emu::LaunchContext* gpulab_emu_launch;

#define threadIdx (static_cast<const uint3&>(gpulab_emu_thread->thread_idx))
#define blockIdx (static_cast<const uint3&>(gpulab_emu_block->block_idx))
// Variables, as in CUDA (not macros: `params.gridDim` in a kernel node's or launch config's
// fields must stay a field). Set for the running launch on each worker (launch_dims.cpp).
extern __thread const dim3 blockDim;
extern __thread const dim3 gridDim;
constexpr int warpSize = 32;

namespace gpulab::emu {
// True while a kernel runs on this thread (a block is entered): where nvcc's device code runs. A
// `__host__ __device__` function that tests `__CUDA_ARCH__` is written twice by the rewriter, as
// nvcc's device pass and its host pass read it, and picks one with this. Constant evaluation has
// no such thread: it reads the host pass's version.
constexpr bool in_device_code() noexcept {
  if (std::is_constant_evaluated()) return false;
  return gpulab_emu_block != nullptr;
}
}  // namespace gpulab::emu
