// Block barriers (__syncthreads and its counting variants, named barriers), __syncwarp and
// memory fences. Each barrier call records its source line so that barrier
// divergence can be reported against the student's code.
#pragma once
#include <atomic>

namespace gpulab::emu {
// grid: cooperative_groups::grid_group::sync(), every thread of a cooperative launch.
enum class BarrierKind : int { plain = 0, count = 1, all = 2, any = 3, grid = 4 };
// Suspends the calling GPU thread until every thread of its block reaches the
// same barrier; returns the count / and / or of `predicate` over the block.
int block_barrier(BarrierKind kind, int predicate, const char* file, int line);
void warp_barrier(unsigned mask, const char* file, int line);
// bar.sync (wait) / bar.arrive id{, threads} and __barrier_sync(_count) (`intrinsic`, for the
// reports' spelling): barrier 0 over the whole block is __syncthreads(); 1 to 15 are named barriers.
void block_named_barrier(unsigned id, unsigned threads, bool has_threads, bool wait, bool intrinsic, const char* file,
                         int line);
void thread_fence();
}  // namespace gpulab::emu

inline void __syncthreads(const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  gpulab::emu::block_barrier(gpulab::emu::BarrierKind::plain, 1, file, line);
}
inline int __syncthreads_count(int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return gpulab::emu::block_barrier(gpulab::emu::BarrierKind::count, predicate, file, line);
}
inline int __syncthreads_and(int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return gpulab::emu::block_barrier(gpulab::emu::BarrierKind::all, predicate, file, line);
}
inline int __syncthreads_or(int predicate, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return gpulab::emu::block_barrier(gpulab::emu::BarrierKind::any, predicate, file, line);
}
// Named barriers (sm_30_intrinsics.h): barrier `id` of every warp of the block, or of `count`
// threads counted in whole warps.
inline void __barrier_sync(unsigned id, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  gpulab::emu::block_named_barrier(id, 0, false, true, true, file, line);
}
inline void __barrier_sync_count(unsigned id, unsigned count, const char* file = __builtin_FILE(),
                                 int line = __builtin_LINE()) {
  gpulab::emu::block_named_barrier(id, count, true, true, true, file, line);
}
inline void __syncwarp(unsigned mask = 0xffffffffu, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  gpulab::emu::warp_barrier(mask, file, line);
}
inline void __threadfence() { gpulab::emu::thread_fence(); }
inline void __threadfence_block() { gpulab::emu::thread_fence(); }
inline void __threadfence_system() { gpulab::emu::thread_fence(); }
