// Hidden reference solution of the convolution lab (parts 1d and 2d): the
// baseline the grader times students against. It is the course's tiled
// convolution (README "3. Tiling with halo cells": input cells and their halo
// staged in shared memory, ghost cells as zeros; "2. The mask in constant
// memory") made fast enough that memory bandwidth, not arithmetic, is the
// limit. Each technique and why:
//   * One kernel instantiation per odd mask width (a template parameter), so
//     every mask loop is unrolled and every mask value is a constant-memory
//     operand of the multiply-add itself (no load instruction for it).
//   * Halo loads that coalesce, 16 bytes at a time: tiles are copied with
//     asynchronous 16-byte copies (cp.async, cuda_pipeline.h), consecutive
//     threads taking consecutive 16-byte groups of a row, and the halo
//     rounded out to whole groups so that every copy is aligned. Ghost cells
//     are zeros written straight into shared memory.
//   * Each input byte read once from device memory (README "How much does
//     tiling save?", with tiles large enough that the halo costs a few per
//     cent): 1-D, a block's tile is thousands of cells; 2-D, a warp owns a
//     strip 128 columns wide and walks down it (below).
//   * Register reuse (thread coarsening): a thread computes 4 neighbouring
//     outputs from one window of inputs read into registers as 16-byte
//     vectors, instead of re-reading each input once per output.
//
// 2-D: a warp walks down a strip of the image, one input row per step. The
// row arrives in a small ring of rows in shared memory (copies started D-1
// steps ahead, so device-memory latency hides behind the arithmetic of the
// rows before it, and only the warp itself waits for them: __syncwarp, no
// block-wide barrier). Input row k adds its contribution to every output row
// it touches, k - R .. k + R (mask rows 2R .. 0), whose sums wait in
// registers; output row k - R is then complete and is stored. The W output
// rows in progress rotate through W register sets, so the step loop is
// unrolled by W (registers can only be indexed by constants). Each input row
// is read from shared memory once, as 1 + 2 * ceil(R / 4) vectors per lane,
// and feeds 4 x W x W multiply-adds: the FFMAs are nearly all the
// instructions, which is what a 7 x 7 mask at memory speed needs (49
// multiply-adds per 8 bytes moved).
// Tunables are the template arguments of the shapes below (measured on an
// H200, docs/performance.md).
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <utility>

namespace {

constexpr int MAX_MASK_WIDTH = 15;

// The mask: read by every thread in the same order, never written by a kernel.
// 1-D uses the first mask_width entries, 2-D the first mask_width^2 (row-major).
__constant__ float c_mask[MAX_MASK_WIDTH * MAX_MASK_WIDTH];

// 16-byte groups of halo on each side of 4 outputs for a mask of width W.
template <int W>
struct Halo {
  static constexpr int GROUPS = (W / 2 + 3) / 4;
};

// One 16-byte group of a row (the 4 cells from column col of a row of `width`
// cells at src_row; row_inside false for a row outside the input) into shared
// memory at dst: one asynchronous 16-byte copy when the 4 cells are inside and
// the row is 16-byte aligned (VEC), zeros when they are all outside (ghost
// cells), and cell by cell otherwise (the ends of unaligned rows).
template <bool VEC>
__device__ __forceinline__ void copy_group(float* dst, const float* src_row, long long col, long long width,
                                           bool row_inside) {
  if (VEC && row_inside && col >= 0 && col + 4 <= width) {
    __pipeline_memcpy_async(dst, src_row + col, 16);
  } else if (!row_inside || col + 4 <= 0 || col >= width) {
    *reinterpret_cast<float4*>(dst) = make_float4(0.f, 0.f, 0.f, 0.f);
  } else {
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      if (col + e >= 0 && col + e < width) __pipeline_memcpy_async(dst + e, src_row + col + e, 4);
      else dst[e] = 0.0f;
    }
  }
}

// Four outputs (col .. col+3 of a row of `width`) stored as one 16-byte vector
// when they are whole and aligned, one by one otherwise.
template <bool VEC>
__device__ __forceinline__ void store4(float* row, long long col, long long width, const float* v) {
  if (VEC && col + 3 < width) {
    *reinterpret_cast<float4*>(row + col) = make_float4(v[0], v[1], v[2], v[3]);
  } else {
#pragma unroll
    for (int e = 0; e < 4; ++e)
      if (col + e < width) row[col + e] = v[e];
  }
}

// ---- 1-D ---------------------------------------------------------------------------------------

// BLOCK threads, each computing 4 consecutive outputs in each of ROUNDS rounds.
template <int BLOCK_, int ROUNDS_>
struct Shape1D {
  static constexpr int BLOCK = BLOCK_, ROUNDS = ROUNDS_;
  static constexpr int TILE = BLOCK * 4 * ROUNDS;  // outputs per block
};
using Conv1D = Shape1D<256, 4>;

template <class S, int W, bool VEC>
__global__ void __launch_bounds__(S::BLOCK) conv1d_tiled(const float* __restrict__ in, float* __restrict__ out,
                                                         int width) {
  constexpr int R = W / 2, HV = Halo<W>::GROUPS, HALO = 4 * HV;
  constexpr int GROUPS = (S::TILE + 2 * HALO) / 4;  // 16-byte groups of the input tile
  __shared__ __align__(16) float tile[S::TILE + 2 * HALO];

  // Shared cell s holds input cell base - HALO + s (0 outside the input).
  const long long base = static_cast<long long>(blockIdx.x) * S::TILE;
  for (int g = threadIdx.x; g < GROUPS; g += S::BLOCK)
    copy_group<VEC>(tile + 4 * g, in, base - HALO + 4 * g, width, true);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();

#pragma unroll
  for (int q = 0; q < S::ROUNDS; ++q) {
    // Outputs o .. o+3 of the tile need shared cells o + HALO - R .. o + 3 + HALO + R,
    // inside the 1 + 2 HV groups starting at cell o.
    const int o = q * (S::BLOCK * 4) + threadIdx.x * 4;
    float win[4 * (1 + 2 * HV)];
#pragma unroll
    for (int v = 0; v < 1 + 2 * HV; ++v) {
      const float4 x = *reinterpret_cast<const float4*>(&tile[o + 4 * v]);
      win[4 * v] = x.x, win[4 * v + 1] = x.y, win[4 * v + 2] = x.z, win[4 * v + 3] = x.w;
    }
    float acc[4] = {0.f, 0.f, 0.f, 0.f};
#pragma unroll
    for (int j = 0; j < W; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[e] += win[HALO - R + e + j] * c_mask[j];
    store4<VEC>(out, base + o, width, acc);
  }
}

// ---- 2-D ---------------------------------------------------------------------------------------

// WARPS warps per block, each walking SEGMENT rows of its own strip of 32 x
// COLS columns (COLS outputs per lane and row: 4 or 8) with a ring of DEPTH
// input rows (a power of two).
template <int WARPS_, int SEGMENT_, int DEPTH_, int COLS_>
struct Shape2D {
  static constexpr int WARPS = WARPS_, SEGMENT = SEGMENT_, DEPTH = DEPTH_, COLS = COLS_;
  static constexpr int STRIP = 32 * COLS;
  static_assert(COLS % 4 == 0, "a lane's outputs are whole 16-byte vectors");
  static_assert((DEPTH & (DEPTH - 1)) == 0 && DEPTH >= 2, "the ring's depth must be a power of two");
};
using Conv2D = Shape2D<4, 128, 8, 4>;

// Masks up to 7 x 7 are held in registers, loaded once per thread: the
// multiply-adds then read three registers and nothing else. Wider masks would
// not fit beside the sums; they are read from constant memory.
template <int W>
struct MaskInRegisters {
  static constexpr bool value = W <= 7;
};

// The slow paths of a 2-D step, out of line (rare: image edges, unaligned
// rows): a 16-byte group of a ring row cell by cell, and a lane's 4 outputs
// one by one. (__attribute__((noinline)) is what __noinline__ stands for; the
// emulator's headers know only the attribute.)
__device__ __attribute__((noinline)) void copy_cells(float* dst, const float* src_row, bool row_inside, long long col,
                                        long long width) {
  for (int e = 0; e < 4; ++e) {
    if (row_inside && col + e >= 0 && col + e < width) __pipeline_memcpy_async(dst + e, src_row + col + e, 4);
    else dst[e] = 0.0f;
  }
}

__device__ __attribute__((noinline)) void store_cells(float* row, long long col, long long width, float v0, float v1, float v2,
                                         float v3) {  // cells col .. col+3
  const float v[4] = {v0, v1, v2, v3};
  for (int e = 0; e < 4; ++e)
    if (col + e < width) row[col + e] = v[e];
}

template <class S, int W, bool VEC>
struct Conv2DWarp {
  static constexpr int R = W / 2, HV = Halo<W>::GROUPS, HALO = 4 * HV;
  static constexpr int COLS = S::COLS;                        // outputs per lane and row
  static constexpr int ROW_GROUPS = S::STRIP / 4 + 2 * HV;  // 16-byte groups of a ring row
  static constexpr int ROW_FLOATS = 4 * ROW_GROUPS;
  static constexpr int COPIES = (ROW_GROUPS + 31) / 32;  // groups a lane copies per row
  static constexpr int VECS = COLS / 4 + 2 * HV;         // vectors a lane reads per input row
  static constexpr bool MASK_REGS = MaskInRegisters<W>::value;

  int height, width;
  float* ring;  // DEPTH rows of ROW_FLOATS: ring row t % DEPTH holds step t's input row
  int lane;
  int steps;  // input rows to walk: the segment's rows and R above and below
  // The next input row to fetch: its step, image row, and this lane's first
  // cell in it (the strip's first column - HALO + 4 * lane; maybe outside the
  // image, then never read). A lane copies groups lane, lane + 32, ... of each
  // ring row.
  int fetch_t, fetch_row;
  const float* fetch_src;
  int first_col;
  // Rows 0 .. fast_rows-1 are copied 16 bytes at a time: all rows when every
  // group of the lane is inside the image's columns and aligned (VEC), none
  // otherwise.
  unsigned fast_rows;
  // The next output row to store (step t stores image row top - 2R + t) and
  // this lane's first output in it.
  int store_row;
  float* store_dst;
  int store_col;
  bool store_whole;   // the lane's outputs are inside the image (VEC: vector stores)
  float acc[W][COLS];  // the sums of the W output rows in progress
  float mask[MASK_REGS ? W * W : 1];  // the mask, when in registers

  __device__ __forceinline__ float m(int i) const { return MASK_REGS ? mask[i] : c_mask[i]; }
  __device__ __forceinline__ bool copies(int h) const { return lane + 32 * h < ROW_GROUPS; }

  __device__ __forceinline__ void init(const float* in, const float* mask_global, float* out, int col0, int top) {
    first_col = col0 - HALO + 4 * lane;
    bool inside = VEC;
#pragma unroll
    for (int h = 0; h < COPIES; ++h)
      if (copies(h)) inside = inside && first_col + 128 * h >= 0 && first_col + 128 * h + 4 <= width;
    fast_rows = inside ? height : 0;
    fetch_t = 0;
    fetch_row = top - R;
    fetch_src = in + static_cast<long long>(fetch_row) * width + first_col;
    store_row = top - 2 * R;
    store_col = col0 + COLS * lane;
    store_dst = out + static_cast<long long>(store_row) * width + store_col;
    store_whole = VEC && store_col + COLS - 1 < width;
    if (MASK_REGS) {
#pragma unroll
      for (int i = 0; i < W * W; ++i) mask[i] = __ldg(mask_global + (MASK_REGS ? i : 0));
    }
  }

  // Starts copying the next input row into the ring.
  __device__ __forceinline__ void fetch() {
    if (fetch_t < steps) {
      float* dst = ring + (fetch_t & (S::DEPTH - 1)) * ROW_FLOATS + 4 * lane;
      if (static_cast<unsigned>(fetch_row) < fast_rows) {
#pragma unroll
        for (int h = 0; h < COPIES; ++h)
          if (copies(h)) __pipeline_memcpy_async(dst + 128 * h, fetch_src + 128 * h, 16);
      } else {  // ghost cells (zeros) and ragged groups
        const bool row_inside = static_cast<unsigned>(fetch_row) < static_cast<unsigned>(height);
        const float* row = fetch_src - first_col;
#pragma unroll
        for (int h = 0; h < COPIES; ++h)
          if (copies(h)) copy_cells(dst + 128 * h, row, row_inside, first_col + 128 * h, width);
      }
    }
    __pipeline_commit();  // one batch per step, even empty, so that the count below holds
    ++fetch_t;
    ++fetch_row;
    fetch_src += width;
  }

  // Step t = t0 + P of the walk (t0 a multiple of W). FIRST: t0 == 0, when the
  // contributions to output rows above the segment are known at compile time
  // and skipped.
  template <int P, bool FIRST>
  __device__ __forceinline__ void step(int t0) {
    const int t = t0 + P;
    __pipeline_wait_prior(S::DEPTH - 2);  // this lane's copies of row t have landed
    __syncwarp();  // everyone's have, and everyone is done with row t-1: its ring row is refilled next
    fetch();       // row t + DEPTH - 1

    float win[4 * VECS];
    const float* row = ring + (t & (S::DEPTH - 1)) * ROW_FLOATS + COLS * lane;
#pragma unroll
    for (int v = 0; v < VECS; ++v) {
      const float4 x = *reinterpret_cast<const float4*>(row + 4 * v);
      win[4 * v] = x.x, win[4 * v + 1] = x.y, win[4 * v + 2] = x.z, win[4 * v + 3] = x.w;
    }
    // Input row top - R + t feeds output row top - 2R + t + d through mask row
    // W - 1 - d; that output's sums are in register set (P + d + 1) % W. The
    // newest one (d = W - 1) starts here, the oldest (d = 0) ends here.
#pragma unroll
    for (int d = W - 1; d >= 0; --d) {
      if (FIRST && P + d < 2 * R) continue;  // an output row above the segment
      float* sums = acc[(P + d + 1) % W];
#pragma unroll
      for (int j = 0; j < W; ++j)
#pragma unroll
        for (int e = 0; e < COLS; ++e) {
          const float product = win[HALO - R + e + j] * m((W - 1 - d) * W + j);
          sums[e] = (d == W - 1 && j == 0) ? product : sums[e] + product;
        }
    }
    // Output row top - 2R + t has had its last input row: store it.
    const float* done = acc[(P + 1) % W];
    if ((!FIRST || P >= 2 * R) && store_row < height) {
      if (store_whole) {
#pragma unroll
        for (int q = 0; q < COLS / 4; ++q)
          reinterpret_cast<float4*>(store_dst)[q] = make_float4(done[4 * q], done[4 * q + 1], done[4 * q + 2], done[4 * q + 3]);
      } else {
#pragma unroll
        for (int q = 0; q < COLS / 4; ++q)
          store_cells(store_dst - store_col, store_col + 4 * q, width, done[4 * q], done[4 * q + 1], done[4 * q + 2],
                      done[4 * q + 3]);
      }
    }
    ++store_row;
    store_dst += width;
  }

  template <bool FIRST, int... P>
  __device__ __forceinline__ void steps_of_chunk(int t0, std::integer_sequence<int, P...>) {
    // One step after the other while t < steps (uniform across the warp).
    (void)((t0 + P < steps ? (step<P, FIRST>(t0), true) : false) && ...);
  }

  __device__ __forceinline__ void walk() {
#pragma unroll
    for (int t = 0; t < S::DEPTH - 1; ++t) fetch();
    steps_of_chunk<true>(0, std::make_integer_sequence<int, W>{});
    for (int t0 = W; t0 < steps; t0 += W) steps_of_chunk<false>(t0, std::make_integer_sequence<int, W>{});
    __pipeline_wait_prior(0);  // nothing may be left in flight
  }
};

template <class S, int W, bool VEC>
__global__ void __launch_bounds__(32 * S::WARPS) conv2d_strips(const float* __restrict__ in,
                                                               const float* __restrict__ mask,
                                                               float* __restrict__ out, int height, int width) {
  using Warp = Conv2DWarp<S, W, VEC>;
  __shared__ __align__(16) float rings[S::WARPS][S::DEPTH * Warp::ROW_FLOATS];
  const int warp = threadIdx.x / 32;
  const int col0 = (blockIdx.x * S::WARPS + warp) * S::STRIP;
  const int top = blockIdx.y * S::SEGMENT;
  if (col0 >= width) return;  // a strip past the right edge (no block-wide barrier follows)
  Warp w;
  w.height = height;
  w.width = width;
  w.lane = threadIdx.x % 32;
  w.ring = rings[warp];
  w.steps = min(S::SEGMENT, height - top) + 2 * Warp::R;
  w.init(in, mask, out, col0, top);
  w.walk();
}

// ---- host side ---------------------------------------------------------------------------------

template <class S, int W>
void launch_1d(const float* in, float* out, int width) {
  const int blocks = (width + S::TILE - 1) / S::TILE;
  // 16-byte copies and stores need 16-byte aligned arrays.
  if (reinterpret_cast<uintptr_t>(in) % 16 == 0 && reinterpret_cast<uintptr_t>(out) % 16 == 0)
    conv1d_tiled<S, W, true><<<blocks, S::BLOCK>>>(in, out, width);
  else
    conv1d_tiled<S, W, false><<<blocks, S::BLOCK>>>(in, out, width);
}

template <class S, int W>
void launch_2d(const float* in, const float* mask, float* out, int height, int width) {
  const int strips = (width + S::STRIP - 1) / S::STRIP;
  const dim3 grid((strips + S::WARPS - 1) / S::WARPS, (height + S::SEGMENT - 1) / S::SEGMENT);
  // 16-byte groups of a row need aligned rows: arrays 16-byte aligned, width a multiple of 4.
  if (width % 4 == 0 && reinterpret_cast<uintptr_t>(in) % 16 == 0 && reinterpret_cast<uintptr_t>(out) % 16 == 0)
    conv2d_strips<S, W, true><<<grid, 32 * S::WARPS>>>(in, mask, out, height, width);
  else
    conv2d_strips<S, W, false><<<grid, 32 * S::WARPS>>>(in, mask, out, height, width);
}

template <class S>
void convolution_1d_with(const float* in, const float* mask, float* out, int width, int mask_width) {
  if (width <= 0 || mask_width <= 0 || mask_width > MAX_MASK_WIDTH || mask_width % 2 == 0) return;
  // The mask is already in device memory: a device-to-device copy into constant memory.
  cudaMemcpyToSymbolAsync(c_mask, mask, mask_width * sizeof(float), 0, cudaMemcpyDeviceToDevice);
  switch (mask_width) {
    case 1: launch_1d<S, 1>(in, out, width); break;
    case 3: launch_1d<S, 3>(in, out, width); break;
    case 5: launch_1d<S, 5>(in, out, width); break;
    case 7: launch_1d<S, 7>(in, out, width); break;
    case 9: launch_1d<S, 9>(in, out, width); break;
    case 11: launch_1d<S, 11>(in, out, width); break;
    case 13: launch_1d<S, 13>(in, out, width); break;
    default: launch_1d<S, 15>(in, out, width); break;
  }
}

template <class S>
void convolution_2d_with(const float* in, const float* mask, float* out, int height, int width, int mask_width) {
  if (height <= 0 || width <= 0 || mask_width <= 0 || mask_width > MAX_MASK_WIDTH || mask_width % 2 == 0) return;
  cudaMemcpyToSymbolAsync(c_mask, mask, mask_width * mask_width * sizeof(float), 0, cudaMemcpyDeviceToDevice);
  switch (mask_width) {
    case 1: launch_2d<S, 1>(in, mask, out, height, width); break;
    case 3: launch_2d<S, 3>(in, mask, out, height, width); break;
    case 5: launch_2d<S, 5>(in, mask, out, height, width); break;
    case 7: launch_2d<S, 7>(in, mask, out, height, width); break;
    case 9: launch_2d<S, 9>(in, mask, out, height, width); break;
    case 11: launch_2d<S, 11>(in, mask, out, height, width); break;
    case 13: launch_2d<S, 13>(in, mask, out, height, width); break;
    default: launch_2d<S, 15>(in, mask, out, height, width); break;
  }
}

}  // namespace

void convolution_1d(const float* in, const float* mask, float* out, int width, int mask_width) {
  convolution_1d_with<Conv1D>(in, mask, out, width, mask_width);
}

void convolution_2d(const float* in, const float* mask, float* out, int height, int width, int mask_width) {
  convolution_2d_with<Conv2D>(in, mask, out, height, width, mask_width);
}
