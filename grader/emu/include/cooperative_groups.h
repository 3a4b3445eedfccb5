// cooperative_groups on the emulator: thread blocks and static warp tiles
// (this_thread_block, tiled_partition<N>, and their sync, shuffles and votes).
// Grid-wide groups need a cooperative launch and are not provided.
#pragma once
#include "gpulab/emu/cuda_emulation.hpp"
#include "gpulab/emu/grid_group.hpp"

namespace cooperative_groups {

class thread_block {
 public:
  void sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) const { __syncthreads(file, line); }
  unsigned size() const { return blockDim.x * blockDim.y * blockDim.z; }
  unsigned num_threads() const { return size(); }
  unsigned thread_rank() const { return gpulab_emu_thread->linear; }
  dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  dim3 group_dim() const { return blockDim; }
  dim3 dim_threads() const { return blockDim; }
};

inline thread_block this_thread_block() { return thread_block(); }

// N consecutive threads of a warp (N a power of two, at most 32).
template <unsigned N>
class thread_block_tile {
  static_assert(N >= 1 && N <= 32 && (N & (N - 1)) == 0, "tile sizes are powers of two up to 32");

 public:
  unsigned mask() const {
    const unsigned base = gpulab_emu_thread->lane / N * N;
    return (N == 32 ? 0xffffffffu : ((1u << N) - 1u)) << base;
  }
  void sync(const char* file = __builtin_FILE(), int line = __builtin_LINE()) const { __syncwarp(mask(), file, line); }
  static constexpr unsigned size() { return N; }
  static constexpr unsigned num_threads() { return N; }
  unsigned thread_rank() const { return gpulab_emu_thread->lane % N; }
  unsigned meta_group_rank() const { return gpulab_emu_thread->linear / N; }
  unsigned meta_group_size() const { return (blockDim.x * blockDim.y * blockDim.z + N - 1) / N; }

  template <class T>
  T shfl(T v, int src, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return __shfl_sync(mask(), v, src, N, file, line);
  }
  template <class T>
  T shfl_down(T v, unsigned d, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return __shfl_down_sync(mask(), v, d, N, file, line);
  }
  template <class T>
  T shfl_up(T v, unsigned d, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return __shfl_up_sync(mask(), v, d, N, file, line);
  }
  template <class T>
  T shfl_xor(T v, int m, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return __shfl_xor_sync(mask(), v, m, N, file, line);
  }
  int any(int p, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return __any_sync(mask(), p, file, line);
  }
  int all(int p, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    return __all_sync(mask(), p, file, line);
  }
  unsigned ballot(int p, const char* file = __builtin_FILE(), int line = __builtin_LINE()) const {
    const unsigned base = gpulab_emu_thread->lane / N * N;
    return __ballot_sync(mask(), p, file, line) >> base;
  }
};

template <unsigned N>
inline thread_block_tile<N> tiled_partition(const thread_block&) {
  return thread_block_tile<N>();
}

template <class Group>
inline void sync(const Group& g, const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  g.sync(file, line);
}

template <class T> struct plus { T operator()(T a, T b) const { return a + b; } };
template <class T> struct less { T operator()(T a, T b) const { return b < a ? b : a; } };
template <class T> struct greater { T operator()(T a, T b) const { return a < b ? b : a; } };

// cg::reduce over a tile: every thread gets the reduction of the tile's values.
template <unsigned N, class T, class Op>
inline T reduce(const thread_block_tile<N>& tile, T value, Op op) {
  for (unsigned offset = N / 2; offset > 0; offset /= 2) value = op(value, tile.shfl_xor(value, static_cast<int>(offset)));
  return value;
}

}  // namespace cooperative_groups
