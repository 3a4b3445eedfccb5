// Runtime API: the occupancy calculator (cudaOccupancyMaxActiveBlocksPerMultiprocessor,
// cudaOccupancyMaxPotentialBlockSize, cudaOccupancyAvailableDynamicSMemPerBlock) for the
// emulated device, an sm_90 GPU. The per-SM limits are those of grader/profile/occupancy.cpp
// (the source of truth for the profiler, from the CUDA C++ Programming Guide's table of
// compute capabilities), repeated here so that the emulator does not depend on the profiler.
// Unknown on the emulator: a kernel's registers (assumed not to limit, i.e. at most 32 per
// thread) and its static shared memory (only the dynamic amount passed in counts).
#include <algorithm>

#include "diagnostics.hpp"
#include "gpulab/emu/runtime_api.hpp"
#include "launch_limits.hpp"

namespace gpulab::emu {
namespace {
// sm_90 (H100, H200); keep in step with arch_limits("sm_90") in grader/profile/occupancy.cpp.
constexpr int kMaxWarpsPerSm = 64;
constexpr int kMaxBlocksPerSm = 32;
constexpr int kMaxThreadsPerBlock = 1024;
constexpr size_t kSharedPerSm = 228 * 1024;
constexpr size_t kReservedSharedPerBlock = 1024;  // the driver's share of every block's shared memory
constexpr size_t kSharedGranularity = 128;

// Dynamic shared memory a kernel may ask for: 48 KiB, or what cudaFuncSetAttribute raised it to.
size_t shared_limit_per_block() { return std::max<size_t>(48 * 1024, max_dynamic_shared_bytes()); }

int blocks_per_sm(int threads, size_t shared) {
  if (threads <= 0 || threads > kMaxThreadsPerBlock || shared > shared_limit_per_block()) return 0;
  const int warps = (threads + 31) / 32;
  int blocks = std::min(kMaxBlocksPerSm, kMaxWarpsPerSm / warps);
  const size_t per_block =
      (shared + kSharedGranularity - 1) / kSharedGranularity * kSharedGranularity + kReservedSharedPerBlock;
  return std::min<int>(blocks, static_cast<int>(kSharedPerSm / per_block));
}

int multiprocessor_count() {
  int n = 1;
  cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, 0);
  return n;
}
}  // namespace

cudaError_t occupancy_blocks_per_sm(int* blocks, const void* kernel, int block_size, size_t dynamic_shared) {
  if (!blocks) return set_last_error(cudaErrorInvalidValue);
  if (!kernel) return set_last_error(cudaErrorInvalidDeviceFunction);
  if (block_size <= 0) return set_last_error(cudaErrorInvalidValue);
  *blocks = blocks_per_sm(block_size, dynamic_shared);
  return cudaSuccess;
}

// CUDA's own search (cuda_runtime.h): block sizes from the largest allowed down in steps of a
// warp; the first that gives the most resident threads wins; stop once an SM is full.
cudaError_t occupancy_best_block_size(int* min_grid_size, int* block_size, const void* kernel,
                                      size_t (*shared_for_block_size)(const void*, int), const void* context,
                                      int block_size_limit) {
  if (!min_grid_size || !block_size || !kernel) return cudaErrorInvalidValue;
  int limit = block_size_limit == 0 ? kMaxThreadsPerBlock : std::min(block_size_limit, kMaxThreadsPerBlock);
  int best_size = 0, best_blocks = 0, best_threads = 0;
  for (int aligned = (limit + 31) / 32 * 32; aligned > 0; aligned -= 32) {
    const int threads = std::min(aligned, limit);
    const int blocks = blocks_per_sm(threads, shared_for_block_size(context, threads));
    if (threads * blocks > best_threads) {
      best_size = threads;
      best_blocks = blocks;
      best_threads = threads * blocks;
    }
    if (best_threads == kMaxWarpsPerSm * 32) break;
  }
  *min_grid_size = best_blocks * multiprocessor_count();
  *block_size = best_size;
  return cudaSuccess;
}

cudaError_t occupancy_available_shared(size_t* bytes, const void* kernel, int blocks, int block_size) {
  if (!bytes) return set_last_error(cudaErrorInvalidValue);
  if (!kernel) return set_last_error(cudaErrorInvalidDeviceFunction);
  if (blocks <= 0 || block_size <= 0 || block_size > kMaxThreadsPerBlock) return set_last_error(cudaErrorInvalidValue);
  const int warps = (block_size + 31) / 32;
  if (blocks > kMaxBlocksPerSm || blocks * warps > kMaxWarpsPerSm) {
    *bytes = 0;
    return cudaSuccess;
  }
  // As CUDA's occupancy calculator computes it (cuda_occupancy.h) and an H200 answers: the SM's
  // shared memory shared out, without the driver's 1 KiB per block, so that the blocks asked for
  // need not all fit (8 blocks of 128 threads get 29,184 bytes each, with which 7 fit).
  const size_t share = kSharedPerSm / blocks;
  *bytes = std::min(share / kSharedGranularity * kSharedGranularity, shared_limit_per_block());
  return cudaSuccess;
}

}  // namespace gpulab::emu
