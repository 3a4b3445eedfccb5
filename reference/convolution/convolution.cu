// Hidden reference solution of the convolution lab (parts 1d and 2d): the
// baseline the grader times students against. It is the course's tiled
// convolution (README "3. Tiling with halo cells": input cells and their halo
// staged in shared memory, ghost cells as zeros; "2. The mask in constant
// memory") made fast enough that memory bandwidth, not arithmetic, is the
// limit. Each technique and why:
//   * One kernel instantiation per odd mask width (a template parameter), so
//     every mask loop is unrolled and every mask value is an operand of the
//     multiply-add itself (no load instruction for it): in the timed kernels a
//     register, the mask read once by every thread (a call is then one kernel
//     launch, where a copy into constant memory first would be a second
//     operation the timed call waits for: conv2d_blocked below has the
//     numbers); in the plain ones (README "2. The mask in constant memory") a
//     constant-memory value. Only where speed is measured: 1-D arrays that are
//     16-byte aligned (as cudaMalloc gives) and 2-D masks up to 7 x 7.
//     Unaligned 1-D arrays and wider 2-D masks take one plain tiled kernel
//     each, with the mask width a run-time value: unrolled copies for them
//     would be most of the code the compiler has to build (on a GPU and on the
//     emulator) for cases that are only checked for correctness.
//   * Large tiles (thread coarsening, README "How much does tiling save?"): a
//     block computes thousands of outputs in 1-D and 64 x 64 in 2-D (128 x 32
//     for 5 x 5 and 7 x 7 on whole 16-byte rows), so the halo adds a few per
//     cent and each input cell comes from device memory about once.
//   * Halo loads that coalesce, 16 bytes at a time: tiles are copied with
//     asynchronous 16-byte copies (cp.async, cuda_pipeline.h), consecutive
//     threads taking consecutive 16-byte groups, the halo rounded out to whole
//     groups so that every copy is aligned. Ghost cells are zeros written
//     straight into shared memory. In 1-D and in the timed 2-D kernel the halo
//     is 8 cells (32 bytes) on each side whatever the mask, so that a warp's
//     copies start on a 32-byte sector: a 4-cell halo for masks 3 to 9 left
//     them 16 bytes off and ran at 0.92x of copy bandwidth, against 0.96-0.97x
//     with 8 (docs/performance.md); in 2-D the 5 x 5 kernel ran 1% slower.
//   * In 2-D a block computes several tiles in turn, copying the next tile's
//     input into a second shared buffer while it computes the current one: the
//     device-memory latency hides behind the arithmetic. For the timed 7 x 7
//     mask on whole 16-byte rows the grid is persistent: as many blocks as fit
//     on the device, walking all the tiles (conv2d_blocked<7>). The timed 5 x 5
//     mask, bound by memory, does better with one tile a block and many small
//     blocks on each multiprocessor (conv2d_blocked<5>).
//   * Register reuse: a thread computes several neighbouring outputs from one
//     window of inputs read from shared memory into registers, instead of
//     re-reading each input once per output that uses it. 1-D: 4 consecutive
//     outputs from one window of 16-byte vectors; 2-D: 2 adjacent columns x 8
//     rows (4 x 8 for 5 x 5 and 7 x 7 on whole 16-byte rows), each input row of the
//     window read once (as vectors) and multiplied into every output row that
//     uses it.
// Tunables are the named constants and the template arguments of Shape1D
// (measured on an H200, docs/performance.md).
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int MAX_MASK_WIDTH = 15;

// The mask: read by every thread in the same order, never written by a kernel.
// 1-D uses the first mask_width entries, 2-D the first mask_width^2 (row-major).
__constant__ float c_mask[MAX_MASK_WIDTH * MAX_MASK_WIDTH];

// The mask in registers (the timed kernels, conv1d_tiled and conv2d_blocked):
// the N values (a row of W in 1-D, W x W in 2-D) read from device memory by
// every thread, value (r, j) at r * W + j.
template <int W, int N = W * W> struct RegisterMask {
  float v[N];
  __device__ __forceinline__ explicit RegisterMask(const float* mask) {
#pragma unroll
    for (int i = 0; i < N; ++i) v[i] = __ldg(mask + i);
  }
  __device__ __forceinline__ float operator()(int r, int j) const { return v[r * W + j]; }
};

// 16-byte groups of halo on each side of a tile for a mask of width W: none
// for W = 1, else two (8 cells, enough for W <= 17, and 32 bytes: the copies
// stay aligned to the 32-byte sectors of device memory).
template <int W> struct Halo {
  static constexpr int GROUPS = W == 1 ? 0 : 2;
  static_assert(W / 2 <= 8, "the halo holds 8 cells");
};

// One 16-byte group of the input (the 4 cells from cell col of an array of
// `width` cells, 16-byte aligned) into shared memory at dst: one asynchronous
// 16-byte copy when the 4 cells are inside, zeros when they are all outside
// (ghost cells), and cell by cell at the array's ends.
__device__ __forceinline__ void copy_group(float* dst, const float* src, long long col, long long width) {
  if (col >= 0 && col + 4 <= width) {
    __pipeline_memcpy_async(dst, src + col, 16);
  } else if (col + 4 <= 0 || col >= width) {
    *reinterpret_cast<float4*>(dst) = make_float4(0.f, 0.f, 0.f, 0.f);
  } else {
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      if (col + e >= 0 && col + e < width) __pipeline_memcpy_async(dst + e, src + col + e, 4);
      else dst[e] = 0.0f;
    }
  }
}

// Four outputs (col .. col+3 of an array of `width`, 16-byte aligned) stored as
// one 16-byte vector when they are whole, one by one at the array's end.
__device__ __forceinline__ void store4(float* out, long long col, long long width, const float* v) {
  if (col + 3 < width) {
    *reinterpret_cast<float4*>(out + col) = make_float4(v[0], v[1], v[2], v[3]);
  } else {
#pragma unroll
    for (int e = 0; e < 4; ++e)
      if (col + e < width) out[col + e] = v[e];
  }
}

// ---- 1-D ---------------------------------------------------------------------------------------

// BLOCK threads, each computing 4 consecutive outputs in each of ROUNDS rounds.
template <int BLOCK_, int ROUNDS_> struct Shape1D {
  static constexpr int BLOCK = BLOCK_, ROUNDS = ROUNDS_;
  static constexpr int TILE = BLOCK * 4 * ROUNDS;  // outputs per block
};
using Conv1D = Shape1D<256, 2>;

// The arrays are 16-byte aligned (the host side checks).
template <class S, int W>
__global__ void __launch_bounds__(S::BLOCK)
    conv1d_tiled(const float* __restrict__ in, const float* __restrict__ mask, float* __restrict__ out, int width) {
  constexpr int R = W / 2, HV = Halo<W>::GROUPS, HALO = 4 * HV;
  constexpr int GROUPS = (S::TILE + 2 * HALO) / 4;  // 16-byte groups of the input tile
  __shared__ __align__(16) float tile[S::TILE + 2 * HALO];
  const RegisterMask<W, W> m(mask);  // read first, so that it is there when the tile is

  // Shared cell s holds input cell base - HALO + s (0 outside the input).
  const long long base = static_cast<long long>(blockIdx.x) * S::TILE;
  for (int g = threadIdx.x; g < GROUPS; g += S::BLOCK)
    copy_group(tile + 4 * g, in, base - HALO + 4 * g, width);
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
      for (int e = 0; e < 4; ++e) acc[e] += win[HALO - R + e + j] * m(0, j);
    store4(out, base + o, width, acc);
  }
}

// ---- 2-D ---------------------------------------------------------------------------------------

// 2-D: CONV2_BX x CONV2_BY threads; each computes CONV2_COLS adjacent columns
// in CONV2_ROWS rows: a CONV2_TILE_X x CONV2_TILE_Y output tile per block.
constexpr int CONV2_BX = 32;
constexpr int CONV2_BY = 8;
constexpr int CONV2_COLS = 2;
constexpr int CONV2_ROWS = 8;
constexpr int CONV2_TILE_X = CONV2_BX * CONV2_COLS;  // 64
constexpr int CONV2_TILE_Y = CONV2_BY * CONV2_ROWS;  // 64
constexpr int CONV2_THREADS = CONV2_BX * CONV2_BY;
// Tiles a block computes one after the other (loading the next while computing one).
constexpr int CONV2_TILES_PER_BLOCK = 4;
// Resident blocks per SM the compiler must allow for masks up to 7 x 7 (a
// register cap: without it, it keeps the whole mask in registers across the
// tile loop); half as many for wider masks, which need more registers. Each
// block holds two tiles in shared memory (45 KB for 7 x 7).
constexpr int CONV2_MIN_BLOCKS = 4;
// Shared tile row length: the tile, its halo and the alignment slack, in whole
// 16-byte groups. Threads read their windows as float2s (consecutive lanes,
// consecutive float2s: no bank conflicts), which needs CONV2_COLS == 2.
static_assert(CONV2_COLS == 2, "the 2-D window reads and output stores are written for 2 columns per thread");
constexpr int CONV2_SHARED_X = CONV2_TILE_X + 16;

// Register blocking in 2-D (README "How much does tiling save?"): a thread's
// input row k (its values in `win`, the window's first column at win[OFF])
// contributes to each of its output rows i through mask row k - i; mask(r, j)
// gives mask value (r, j). Called with k a compile-time constant (an unrolled
// loop), so the rows that do not use it cost nothing. The multiply-adds go mask
// column by mask column, and inside a column output row by output row: each
// input value is used by the 4 columns' multiply-adds in a row.
template <int W, int OFF, int ROWS, int COLS, int N, class Mask>
__device__ __forceinline__ void add_input_row(float (&acc)[ROWS][COLS], const float (&win)[N], int k,
                                              const Mask& mask) {
#pragma unroll
  for (int j = 0; j < W; ++j)
#pragma unroll
    for (int i = 0; i < ROWS; ++i) {
      const int mrow = k - i;
      if (mrow >= 0 && mrow < W) {
#pragma unroll
        for (int e = 0; e < COLS; ++e) acc[i][e] += win[OFF + e + j] * mask(mrow, j);
      }
    }
}

// The 2-D mask as the multiply-adds read it from constant memory: each value
// a constant-bank operand of its FFMA.
template <int W> struct ConstantMask {
  __device__ __forceinline__ float operator()(int r, int j) const { return c_mask[r * W + j]; }
};

template <int W>
__global__ void __launch_bounds__(CONV2_THREADS, W <= 7 ? CONV2_MIN_BLOCKS : CONV2_MIN_BLOCKS / 2)
    conv2d_tiled(const float* __restrict__ in, float* __restrict__ out, int height, int width, bool vector_load) {
  constexpr int R = W / 2;
  constexpr int IN_H = CONV2_TILE_Y + W - 1;  // shared rows in use
  // Shared column s of a row holds input column col0 - 8 + s, so a 16-byte
  // group of input cells (col0 is a multiple of 64) lands on a 16-byte group of
  // shared cells. Thread x's outputs col0 + 2x, +1 need shared columns
  // 2x + 8 - R .. 2x + 9 + R, read as float2s from the even column below.
  constexpr int OFF = (8 - R) & 1;                                            // window start within its first float2
  constexpr int A0 = (8 - R) - OFF;                                           // thread 0's first float2 column
  constexpr int VECS_PER_ROW = (OFF + CONV2_COLS + W - 1 + 1) / 2;            // float2 reads per window row
  constexpr int S_END = CONV2_COLS * (CONV2_BX - 1) + A0 + 2 * VECS_PER_ROW;  // one past the last column read
  // The tile is copied in slots of 4 cells (16 bytes): slots V0 .. V1-1 of each row.
  constexpr int V0 = A0 / 4, V1 = (S_END + 3) / 4, VECS = V1 - V0;
  static_assert(4 * V1 <= CONV2_SHARED_X, "the shared row must hold every window");
  constexpr int SLOTS = IN_H * VECS;
  // Two tiles: the one being computed and the next one, on its way.
  extern __shared__ __align__(16) float smem[];
  float(*tiles)[IN_H][CONV2_SHARED_X] = reinterpret_cast<float(*)[IN_H][CONV2_SHARED_X]>(smem);

  const int col0 = blockIdx.x * CONV2_TILE_X;
  const int tid = threadIdx.y * CONV2_BX + threadIdx.x;
  // Starts copying the input of the tile at output row row0 into tiles[buf]:
  // asynchronous copies straight from device memory into shared memory, with
  // ghost cells zero-filled. Consecutive threads take consecutive slots of a
  // row (coalesced).
  auto start_copy = [&](int buf, int row0) {
    for (int slot = tid; slot < SLOTS; slot += CONV2_THREADS) {
      const int tr = slot / VECS, v = V0 + slot - tr * VECS;
      const int gr = row0 - R + tr, g0 = col0 - 8 + 4 * v;
      float* dst = &tiles[buf][tr][4 * v];
      const bool row_in = gr >= 0 && gr < height;
      const float* row = in + static_cast<size_t>(row_in ? gr : 0) * width;
      if (vector_load) {  // the 4 cells are all inside the row or all outside it
        const bool inside = row_in && g0 >= 0 && g0 < width;
        __pipeline_memcpy_async(dst, inside ? row + g0 : in, 16, inside ? 0 : 16);
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const bool inside = row_in && g0 + e >= 0 && g0 + e < width;
          __pipeline_memcpy_async(dst + e, inside ? row + g0 + e : in, 4, inside ? 0 : 4);
        }
      }
    }
    __pipeline_commit();
  };

  // The block computes CONV2_TILES_PER_BLOCK tiles one below the other; while
  // it computes one, the next one is being copied into the other buffer.
  const int tiles_y = (height + CONV2_TILE_Y - 1) / CONV2_TILE_Y;
  const int first_tile = blockIdx.y * CONV2_TILES_PER_BLOCK;
  const int end_tile = min(first_tile + CONV2_TILES_PER_BLOCK, tiles_y);
  start_copy(0, first_tile * CONV2_TILE_Y);
  for (int t = first_tile; t < end_tile; ++t) {
    const int row0 = t * CONV2_TILE_Y;
    const int buf = (t - first_tile) & 1;
    if (t + 1 < end_tile) {
      start_copy(buf ^ 1, row0 + CONV2_TILE_Y);
      __pipeline_wait_prior(1);  // this thread's copies of tile t have landed
    } else {
      __pipeline_wait_prior(0);
    }
    __syncthreads();  // everyone's copies of tile t have landed

    // Outputs (r, c .. c+COLS-1) for r in rows ty*ROWS .. +ROWS-1 of the tile:
    // input row ty*ROWS + k contributes to output row ty*ROWS + i through mask
    // row k - i.
    const int a0 = threadIdx.x * CONV2_COLS + A0;
    const int tr0 = threadIdx.y * CONV2_ROWS;
    float acc[CONV2_ROWS][CONV2_COLS];
#pragma unroll
    for (int i = 0; i < CONV2_ROWS; ++i)
#pragma unroll
      for (int e = 0; e < CONV2_COLS; ++e) acc[i][e] = 0.0f;
#pragma unroll
    for (int k = 0; k < CONV2_ROWS + W - 1; ++k) {
      float win[2 * VECS_PER_ROW];
#pragma unroll
      for (int v = 0; v < VECS_PER_ROW; ++v) {
        const float2 x = *reinterpret_cast<const float2*>(&tiles[buf][tr0 + k][a0 + 2 * v]);
        win[2 * v] = x.x;
        win[2 * v + 1] = x.y;
      }
      add_input_row<W, OFF>(acc, win, k, ConstantMask<W>());
    }

    const int col = col0 + threadIdx.x * CONV2_COLS;
#pragma unroll
    for (int i = 0; i < CONV2_ROWS; ++i) {
      const int row = row0 + tr0 + i;
      if (row >= height) break;
      float* dst = out + static_cast<size_t>(row) * width + col;
      if ((reinterpret_cast<uintptr_t>(dst) % 8) == 0 && col + 1 < width) {
        *reinterpret_cast<float2*>(dst) = make_float2(acc[i][0], acc[i][1]);
      } else {
        if (col < width) dst[0] = acc[i][0];
        if (col + 1 < width) dst[1] = acc[i][1];
      }
    }
    __syncthreads();  // everyone is done with tiles[buf] before it is refilled
  }
}

// ---- 2-D, 5 x 5 and 7 x 7 on whole 16-byte rows: the timed cases --------------------------------

// The speed test's 2-D masks (5 x 5 and 7 x 7) on rows that are whole 16-byte
// groups (width % 4 == 0 and 16-byte aligned arrays, as cudaMalloc gives) take
// this kernel: on an H200 at 8192 x 8192, timed as `gpulab bench` times a call,
// it runs at 0.95x (5 x 5) and 0.81x (7 x 7) of copy bandwidth, against 0.86x
// and 0.67x for conv2d_tiled, which every other 2-D case keeps (the numbers:
// docs/performance.md). What it adds to conv2d_tiled:
//   * Register blocking (README "How much does tiling save?": threads that
//     compute several outputs): a thread computes 4 adjacent columns x 8 rows.
//     Each input row of its window (4 + W - 1 columns) is read from shared
//     memory once, as three 16-byte vectors (one LDS.128 each), and multiplied
//     into every one of the 8 output rows that uses it: 21 bytes of shared
//     reads an output at 7 x 7, against 35 with conv2d_tiled's 2 x 8 and float2
//     reads.
//   * Tiles with halo cells (README "3. Tiling with halo cells"): a block's
//     128 x 32 outputs need a (128 + W - 1) x (32 + W - 1) input tile, copied as
//     36 16-byte groups a row (144 columns: 8 halo cells on each side whatever
//     the mask, as in 1-D, so that every row's copies start on a 32-byte
//     sector; with the 4-cell halo the masks need, 34 groups a row starting 16
//     bytes off a sector, the 5 x 5 kernel ran 1% slower), ghost cells zeros.
//     Tiles whose input lies wholly inside the image (all but the border ones)
//     are copied with one 16-byte copy per thread per row and no range tests,
//     from offsets each thread computes once: with the border tiles' tested
//     copy for every tile, Nsight Compute counted 709 instructions per warp and
//     tile besides the 1568 multiply-adds of 7 x 7.
//   * The mask in registers (beyond the README, whose "2. The mask in constant
//     memory" says why constant memory is the usual place): every thread reads
//     the W x W values from device memory once, into registers that the
//     multiply-adds take as operands as they would a constant (the compiler
//     moves all 25 of 5 x 5 and 15 of 7 x 7's 49 into the warp's uniform
//     registers, Nsight Compute's R2UR count). Then a call is one kernel
//     launch: a copy into constant memory first is a second operation the
//     timed call waits for, 4.5% of a 5 x 5 call and 4% of a 7 x 7 call at
//     8192 x 8192 (the 7 x 7 kernel itself runs 1-1.5% slower with its mask in
//     registers than with its mask in constant memory).
//   * What the two masks need differs. At 5 x 5 (25 multiply-adds an output)
//     the kernel is bound by memory: each block computes one tile, copy, wait,
//     compute, store, as the README's tiled kernel does, and 6 blocks fit on a
//     multiprocessor, so while some wait for their copies others compute and
//     the copies of many blocks are in flight at once (a persistent,
//     double-buffered grid ran at 0.83x). At 7 x 7 (49 multiply-adds, 103 us of
//     the FMA pipe at 8192^2 where 0.95x of the copy is 141 us) the arithmetic
//     must overlap the copies:
//       - cp.async double buffering (beyond the README: cuda_pipeline.h): the
//         next tile's input is copied into a second shared buffer, straight
//         from device memory without passing through registers, while the
//         current one is computed, so the device-memory latency hides behind
//         the arithmetic. One __syncthreads() a tile: after it everyone's copies
//         of this tile have landed and everyone is done with the previous one,
//         whose buffer the next copy then fills (two a tile: 0.78x, against 0.80x).
//       - A persistent grid (beyond the README): as many blocks as fit on the
//         device at once, each walking the tiles t, t + gridDim.x, ... in
//         row-major order (the next tile's coordinates by addition, without a
//         division), so that the blocks work on neighbouring tiles at the same
//         time and the halo rows that two row bands share still come from the
//         L2 cache (one block a tile: 0.74-0.76x; 3 buffers at 3 blocks per SM
//         0.78x; 128 x 64 tiles 0.77x).
// The sums are written acc += a * b, which nvcc contracts to FFMAs: written with
// fmaf(), its front end placed all 42 shared loads of the unrolled loop before
// the multiply-adds (227 registers, spills under any cap).
constexpr int BLK_ROWS = 8;  // output rows per thread (4 columns each)
constexpr int BLK_BY = 4;    // warps per block, one below the other
constexpr int BLK_THREADS = 32 * BLK_BY;
constexpr int BLK_TX = 128, BLK_TY = BLK_BY * BLK_ROWS;  // output tile: 128 x 32
// Shared vector v of a tile row holds input columns col0 - 8 + 4v .. +3, col0
// the tile's first output column (0 <= v < BLK_SV: the tile and an 8-column
// halo on each side, as in conv2d_tiled).
constexpr int BLK_SV = BLK_TX / 4 + 4;
constexpr int BLK_EXTRA = BLK_SV - 32;  // vectors of a row past the warp's 32

// The kernel's shape for a W x W mask.
template <int W> struct Blocked {
  static constexpr int R = W / 2;
  static constexpr int IN_H = BLK_TY + W - 1;  // input rows of a tile: 36 or 38
  // Lane x's outputs are shared columns 8 + 4x .. 11 + 4x; its window, columns
  // 8 + 4x - R .. 11 + 4x + R, lies in vectors x + V_LO .. x + V_HI, from column
  // OFF of the first.
  static constexpr int V_LO = (8 - R) / 4, V_HI = (11 + R) / 4, NV = V_HI - V_LO + 1, OFF = (8 - R) - 4 * V_LO;
  // 7 x 7: two tile buffers and a persistent grid; 5 x 5: one tile a block.
  static constexpr bool PERSISTENT = W == 7;
  static constexpr int BUFFERS = PERSISTENT ? 2 : 1;
  // Resident blocks per SM the register allocation must allow: 5 for 7 x 7 (a
  // cap of 96 registers a thread; shared memory allows 5 blocks of 43 KB), 6
  // for 5 x 5 (80 registers; at 64, for 8 blocks, the mask spills).
  static constexpr int MIN_BLOCKS = W == 7 ? 5 : 6;
  // The last BLK_EXTRA vectors of every row, spread over the threads.
  static constexpr int EXTRA_SLOTS = IN_H * BLK_EXTRA;
  static constexpr int EXTRA_PER_THREAD = (EXTRA_SLOTS + BLK_THREADS - 1) / BLK_THREADS;
  static_assert(NV == 3 && V_HI + 31 < BLK_SV, "three vectors per window row, inside the shared row");
  static_assert(BUFFERS * IN_H * BLK_SV * 16 <= 48 * 1024, "the buffers fit the default shared-memory limit");
};

// The arrays are 16-byte aligned and width % 4 == 0 (the host side checks):
// every 16-byte group of a row is wholly inside the image or wholly outside.
// One tile a block: block (x, y) computes tile (x, first_ty + y).
template <int W>
__global__ void __launch_bounds__(BLK_THREADS, Blocked<W>::MIN_BLOCKS)
    conv2d_blocked(const float* __restrict__ in, const float* __restrict__ mask, float* __restrict__ out, int height,
                   int width, int tiles_x, int tiles_y, int first_ty) {
  using B = Blocked<W>;
  // BUFFERS tiles of IN_H rows of BLK_SV vectors: row r of buffer b at vector (b * IN_H + r) * BLK_SV.
  extern __shared__ float4 tiles[];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

  // The mask (25 or 49 values), read first, so that it is there when the first tile is.
  const RegisterMask<W> m(mask);

  // This thread's share of the last BLK_EXTRA vectors of the rows of an
  // interior tile: slot i = threadIdx.x + q * BLK_THREADS is row i / BLK_EXTRA,
  // vector 32 + i % BLK_EXTRA: extra_src[q] cells from the tile's first input
  // cell, shared vector extra_dst[q] of its buffer.
  long long extra_src[B::EXTRA_PER_THREAD];
  int extra_dst[B::EXTRA_PER_THREAD];
#pragma unroll
  for (int q = 0; q < B::EXTRA_PER_THREAD; ++q) {
    const int i = threadIdx.x + q * BLK_THREADS, r = i / BLK_EXTRA, v = 32 + i % BLK_EXTRA;
    extra_src[q] = static_cast<long long>(r) * width + 4 * v;
    extra_dst[q] = r * BLK_SV + v;
  }

  // Starts the copy of tile (tx, ty)'s input (and halo) into buffer buf (one
  // commit), every row whole (BLK_SV vectors, from a 32-byte sector).
  auto start_copy = [&](int buf, int tx, int ty) {
    float4* const dst = tiles + buf * B::IN_H * BLK_SV;
    const int row0 = ty * BLK_TY - B::R, c0 = tx * BLK_TX - 8;  // the tile's first input row and column
    if (row0 >= 0 && row0 + B::IN_H <= height && c0 >= 0 && c0 + 4 * BLK_SV <= width) {
      // Inside the image, no tests: warp w copies rows w, w + BLK_BY, ..., lane l
      // vector l of each (consecutive lanes, consecutive 16 bytes: coalesced),
      // then every thread its extra vectors.
      const float* base = in + static_cast<size_t>(row0) * width + c0;
      const float* src = base + static_cast<size_t>(warp) * width + 4 * lane;
      const size_t step = static_cast<size_t>(BLK_BY) * width;
#pragma unroll
      for (int r = warp, k = 0; k < (B::IN_H + BLK_BY - 1) / BLK_BY; ++k, r += BLK_BY, src += step)
        if (k < B::IN_H / BLK_BY || r < B::IN_H) __pipeline_memcpy_async(dst + r * BLK_SV + lane, src, 16);
#pragma unroll
      for (int q = 0; q < B::EXTRA_PER_THREAD; ++q)
        if (q < B::EXTRA_SLOTS / BLK_THREADS || threadIdx.x + q * BLK_THREADS < B::EXTRA_SLOTS)
          __pipeline_memcpy_async(dst + extra_dst[q], base + extra_src[q], 16);
    } else {
      // A border tile: vector by vector, ghost cells (outside the image)
      // zero-filled by the copy itself (16 bytes of zeros, none read).
      for (int i = threadIdx.x; i < B::IN_H * BLK_SV; i += BLK_THREADS) {
        const int r = i / BLK_SV, v = i - r * BLK_SV, gr = row0 + r, gc = c0 + 4 * v;
        const bool inside = gr >= 0 && gr < height && gc >= 0 && gc < width;
        __pipeline_memcpy_async(dst + i, inside ? in + static_cast<size_t>(gr) * width + gc : in, 16, inside ? 0 : 16);
      }
    }
    __pipeline_commit();
  };

  // Persistent, block b computes tiles b, b + gridDim.x, ... (row-major), each
  // one step of (step_x, step_y) from the one before, wrapping to the next row
  // of tiles, the next one's copy into the other buffer started while this one
  // is computed.
  int tx = blockIdx.x, ty = first_ty + blockIdx.y, step_x = 0, step_y = 0;
  if (B::PERSISTENT) {
    ty = blockIdx.x / tiles_x, tx = blockIdx.x - ty * tiles_x;
    step_y = gridDim.x / tiles_x, step_x = gridDim.x - step_y * tiles_x;
  }
  int buf = 0;
  if (ty < tiles_y) start_copy(0, tx, ty);
  while (ty < tiles_y) {
    int next_x = tx + step_x, next_y = ty + step_y;
    if (next_x >= tiles_x) next_x -= tiles_x, ++next_y;
    __pipeline_wait_prior(0);  // this thread's copies of this tile have landed
    __syncthreads();           // everyone's have, and everyone is done with the other buffer
    if (B::PERSISTENT && next_y < tiles_y) start_copy(buf ^ 1, next_x, next_y);

    // Outputs (r, 4 lane .. 4 lane + 3) for r in rows warp*ROWS .. +ROWS-1 of
    // the tile: input row warp*ROWS + k contributes to output row warp*ROWS + i
    // through mask row k - i.
    float acc[BLK_ROWS][4];
#pragma unroll
    for (int i = 0; i < BLK_ROWS; ++i)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[i][e] = 0.0f;
    const float4* const rows = tiles + (buf * B::IN_H + warp * BLK_ROWS) * BLK_SV + lane + B::V_LO;
#pragma unroll
    for (int k = 0; k < BLK_ROWS + W - 1; ++k) {
      float win[4 * B::NV];
#pragma unroll
      for (int v = 0; v < B::NV; ++v) {
        const float4 x = rows[k * BLK_SV + v];
        win[4 * v] = x.x, win[4 * v + 1] = x.y, win[4 * v + 2] = x.z, win[4 * v + 3] = x.w;
      }
      add_input_row<W, B::OFF>(acc, win, k, m);
    }

    // One 16-byte store per output row (width % 4 == 0: the 4 columns are all
    // inside the row or all outside it), without row tests above the last rows.
    const int col = tx * BLK_TX + 4 * lane, row_base = ty * BLK_TY + warp * BLK_ROWS;
    if (col < width) {
      float* dst = out + static_cast<size_t>(row_base) * width + col;
      if (row_base + BLK_ROWS <= height) {
#pragma unroll
        for (int i = 0; i < BLK_ROWS; ++i, dst += width)
          *reinterpret_cast<float4*>(dst) = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
      } else {
#pragma unroll
        for (int i = 0; i < BLK_ROWS; ++i, dst += width)
          if (row_base + i < height)
            *reinterpret_cast<float4*>(dst) = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
      }
    }
    if (!B::PERSISTENT) break;
    tx = next_x, ty = next_y, buf ^= 1;
  }
}

// ---- the plain kernels: correctness-only cases ---------------------------------------------------

// 1-D on arrays that are not 16-byte aligned: the course's tiled kernel
// (README "3. Tiling with halo cells"), one output per thread, the block's
// inputs and halo staged in shared memory one cell at a time.
constexpr int PLAIN_BLOCK = 256;

__global__ void __launch_bounds__(PLAIN_BLOCK)
    conv1d_unaligned(const float* __restrict__ in, float* __restrict__ out, int width, int mask_width) {
  __shared__ float tile[PLAIN_BLOCK + MAX_MASK_WIDTH - 1];
  const int r = mask_width / 2;
  // Shared cell s holds input cell base - r + s (0 outside the input: ghost cells).
  const long long base = static_cast<long long>(blockIdx.x) * PLAIN_BLOCK;
  for (int s = threadIdx.x; s < PLAIN_BLOCK + mask_width - 1; s += PLAIN_BLOCK) {
    const long long g = base - r + s;
    tile[s] = g >= 0 && g < width ? in[g] : 0.0f;
  }
  __syncthreads();
  const long long o = base + threadIdx.x;
  if (o >= width) return;
  float acc = 0.0f;
  for (int j = 0; j < mask_width; ++j) acc += tile[threadIdx.x + j] * c_mask[j];
  out[o] = acc;
}

// 2-D masks wider than 7 x 7: a WIDE_TILE_X x WIDE_TILE_Y output tile per
// block, its input and halo in shared memory; thread (x, y) computes column x
// of the WIDE_ROWS consecutive rows from y * WIDE_ROWS, each mask value read
// once for all of them (README "How much does tiling save?": reuse from
// registers), their sums independent of each other.
constexpr int WIDE_BX = 32;
constexpr int WIDE_BY = 8;
constexpr int WIDE_ROWS = 16;
constexpr int WIDE_TILE_X = WIDE_BX;
constexpr int WIDE_TILE_Y = WIDE_BY * WIDE_ROWS;
constexpr int WIDE_IN_X = WIDE_TILE_X + MAX_MASK_WIDTH - 1;  // input columns a tile needs, at most
constexpr int WIDE_IN_Y = WIDE_TILE_Y + MAX_MASK_WIDTH - 1;  // and rows

__global__ void __launch_bounds__(WIDE_BX* WIDE_BY)
    conv2d_wide(const float* __restrict__ in, float* __restrict__ out, int height, int width, int mask_width) {
  // One more column than needed: a column's rows fall on different banks.
  __shared__ float tile[WIDE_IN_Y][WIDE_IN_X + 1];
  const int r = mask_width / 2, in_x = WIDE_TILE_X + mask_width - 1, in_y = WIDE_TILE_Y + mask_width - 1;
  const int row0 = blockIdx.y * WIDE_TILE_Y, col0 = blockIdx.x * WIDE_TILE_X;
  // Shared cell (tr, tc) holds input cell (row0 - r + tr, col0 - r + tc), 0 outside the input.
  for (int s = threadIdx.y * WIDE_BX + threadIdx.x; s < in_x * in_y; s += WIDE_BX * WIDE_BY) {
    const int tr = s / in_x, tc = s - tr * in_x;
    const int gr = row0 - r + tr, gc = col0 - r + tc;
    tile[tr][tc] = gr >= 0 && gr < height && gc >= 0 && gc < width ? in[static_cast<size_t>(gr) * width + gc] : 0.0f;
  }
  __syncthreads();
  const int tr0 = threadIdx.y * WIDE_ROWS, col = col0 + threadIdx.x;
  if (row0 + tr0 >= height || col >= width) return;  // this thread's outputs are all outside
  float acc[WIDE_ROWS] = {};
  for (int mr = 0; mr < mask_width; ++mr) {
    for (int mc = 0; mc < mask_width; ++mc) {
      const float m = c_mask[mr * mask_width + mc];
#pragma unroll
      for (int i = 0; i < WIDE_ROWS; ++i) acc[i] += tile[tr0 + i + mr][threadIdx.x + mc] * m;
    }
  }
#pragma unroll
  for (int i = 0; i < WIDE_ROWS; ++i)
    if (row0 + tr0 + i < height) out[static_cast<size_t>(row0 + tr0 + i) * width + col] = acc[i];
}

// ---- host side ---------------------------------------------------------------------------------

template <class S, int W> void launch_1d(const float* in, const float* mask, float* out, int width) {
  const int blocks = (width + S::TILE - 1) / S::TILE;
  conv1d_tiled<S, W><<<blocks, S::BLOCK>>>(in, mask, out, width);
}

template <int W> void launch_2d(const float* in, float* out, int height, int width) {
  constexpr int shared_bytes = 2 * (CONV2_TILE_Y + W - 1) * CONV2_SHARED_X * sizeof(float);
  static bool shared_limit_raised = false;  // wide masks need more than the default 48 KiB
  if (!shared_limit_raised) {
    cudaFuncSetAttribute(conv2d_tiled<W>, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes);
    shared_limit_raised = true;
  }
  const dim3 block(CONV2_BX, CONV2_BY);
  const int tiles_y = (height + CONV2_TILE_Y - 1) / CONV2_TILE_Y;
  const dim3 grid((width + CONV2_TILE_X - 1) / CONV2_TILE_X,
                  (tiles_y + CONV2_TILES_PER_BLOCK - 1) / CONV2_TILES_PER_BLOCK);
  const bool vector_load = width % 4 == 0 && reinterpret_cast<uintptr_t>(in) % 16 == 0;
  conv2d_tiled<W><<<grid, block, shared_bytes>>>(in, out, height, width, vector_load);
}

// One block a tile, or for 7 x 7 the persistent grid: as many blocks as fit
// on the device at once (asked once), or one per tile when there are fewer.
template <int W> void launch_blocked(const float* in, const float* mask, float* out, int height, int width) {
  using B = Blocked<W>;
  constexpr size_t shared_bytes = B::BUFFERS * B::IN_H * BLK_SV * sizeof(float4);
  const int tiles_x = (width + BLK_TX - 1) / BLK_TX, tiles_y = (height + BLK_TY - 1) / BLK_TY;
  if (!B::PERSISTENT) {  // a grid of at most 65535 rows of tiles (its y limit) at a time
    for (int first_ty = 0; first_ty < tiles_y; first_ty += 65535) {
      const dim3 grid(tiles_x, tiles_y - first_ty < 65535 ? tiles_y - first_ty : 65535);
      conv2d_blocked<W><<<grid, BLK_THREADS, shared_bytes>>>(in, mask, out, height, width, tiles_x, tiles_y, first_ty);
    }
    return;
  }
  static int grid_max = 0;
  if (grid_max == 0) {
    int per_sm = 0, sms = 0, device = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, conv2d_blocked<W>, BLK_THREADS, shared_bytes);
    grid_max = (per_sm > 0 ? per_sm : 1) * (sms > 0 ? sms : 1);
  }
  const long long tiles = static_cast<long long>(tiles_x) * tiles_y;
  const int grid = tiles < grid_max ? static_cast<int>(tiles) : grid_max;
  conv2d_blocked<W><<<grid, BLK_THREADS, shared_bytes>>>(in, mask, out, height, width, tiles_x, tiles_y, 0);
}

template <class S> void convolution_1d_with(const float* in, const float* mask, float* out, int width, int mask_width) {
  if (width <= 0 || mask_width <= 0 || mask_width > MAX_MASK_WIDTH || mask_width % 2 == 0) return;
  // 16-byte copies and stores need 16-byte aligned arrays.
  if (reinterpret_cast<uintptr_t>(in) % 16 != 0 || reinterpret_cast<uintptr_t>(out) % 16 != 0) {
    // The mask is already in device memory: a device-to-device copy into constant memory.
    cudaMemcpyToSymbolAsync(c_mask, mask, mask_width * sizeof(float), 0, cudaMemcpyDeviceToDevice);
    conv1d_unaligned<<<(width + PLAIN_BLOCK - 1) / PLAIN_BLOCK, PLAIN_BLOCK>>>(in, out, width, mask_width);
    return;
  }
  // conv1d_tiled reads the mask into registers itself: one launch.
  switch (mask_width) {
    case 1: launch_1d<S, 1>(in, mask, out, width); break;
    case 3: launch_1d<S, 3>(in, mask, out, width); break;
    case 5: launch_1d<S, 5>(in, mask, out, width); break;
    case 7: launch_1d<S, 7>(in, mask, out, width); break;
    case 9: launch_1d<S, 9>(in, mask, out, width); break;
    case 11: launch_1d<S, 11>(in, mask, out, width); break;
    case 13: launch_1d<S, 13>(in, mask, out, width); break;
    default: launch_1d<S, 15>(in, mask, out, width); break;
  }
}

}  // namespace

void convolution_1d(const float* in, const float* mask, float* out, int width, int mask_width) {
  convolution_1d_with<Conv1D>(in, mask, out, width, mask_width);
}

void convolution_2d(const float* in, const float* mask, float* out, int height, int width, int mask_width) {
  if (height <= 0 || width <= 0 || mask_width <= 0 || mask_width > MAX_MASK_WIDTH || mask_width % 2 == 0) return;
  // 16-byte copies and stores of whole rows: width % 4 == 0 and 16-byte aligned arrays.
  const bool whole_rows =
      width % 4 == 0 && reinterpret_cast<uintptr_t>(in) % 16 == 0 && reinterpret_cast<uintptr_t>(out) % 16 == 0;
  if (whole_rows && (mask_width == 5 || mask_width == 7)) {  // the kernel reads the mask itself: one launch
    if (mask_width == 5) launch_blocked<5>(in, mask, out, height, width);
    else launch_blocked<7>(in, mask, out, height, width);
    return;
  }
  cudaMemcpyToSymbolAsync(c_mask, mask, mask_width * mask_width * sizeof(float), 0, cudaMemcpyDeviceToDevice);
  switch (mask_width) {
    case 1: launch_2d<1>(in, out, height, width); break;
    case 3: launch_2d<3>(in, out, height, width); break;
    case 5: launch_2d<5>(in, out, height, width); break;
    case 7: launch_2d<7>(in, out, height, width); break;
    default: {
      const dim3 grid((width + WIDE_TILE_X - 1) / WIDE_TILE_X, (height + WIDE_TILE_Y - 1) / WIDE_TILE_Y);
      conv2d_wide<<<grid, dim3(WIDE_BX, WIDE_BY)>>>(in, out, height, width, mask_width);
    }
  }
}
