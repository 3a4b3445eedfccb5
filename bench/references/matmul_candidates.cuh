// Candidate FP32 SGEMM kernels for the matmul reference's tuning bench
// (bench/references/matmul_variants.cu): c = a * b, row-major, a (m x k),
// b (k x n), c (m x n), any sizes, FFMA only. They aim at fewer non-FMA
// instructions per FMA than the reference's 64 x 64 x 16 kernel:
//   * Larger per-thread tiles: TM x TN = 8 x 16 (or 8 x 8), held as 4 x 4
//     sub-tiles. Per 4 steps of k a thread reads TM float4 of a (four k of one
//     row each, a kept row-major in shared memory with padded rows) and
//     4 * TN/4 float4 of b: 8 x 16 needs 24 shared loads per 512 FMAs (the
//     reference's 8 x 8: 16 per 256).
//   * Warp tiles of 64 x 64 (8 x 4 threads of 8 x 16) or 64 x 32, blocks of
//     1, 2 or 4 warps, as cuBLAS's SIMT kernels arrange them (128 x 128 x 8,
//     2 x 2 warps of 64 x 64).
//   * Aligned rows (k, n multiples of 4, 16-byte pointers): STAGES-deep
//     cp.async (16-byte) ring, as the reference, but blocks whose tile lies
//     wholly inside the matrices copy without any bounds test (only edge
//     blocks and the last k step take the guarded copy).
//   * Unaligned rows (the ragged case): no 16-byte copies are possible, so
//     the tiles travel through registers: the next tile's scalar global loads
//     are issued before the current tile's arithmetic and written to the
//     other of two shared buffers (as float4) after it; again without bounds
//     tests inside the matrices.
// Written by hand for the bench; the reference (reference/matmul/matmul.cu)
// is not changed by this file.
#pragma once
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace candidates {

// BM x BN block tile, BK deep; WARPS_Y x WARPS_X warps; TM x TN per thread
// (TM = 8); STAGES cp.async buffers on the aligned path (2 on the other);
// MIN_BLOCKS resident blocks per SM for __launch_bounds__.
template <int BM_, int BN_, int BK_, int WARPS_Y_, int WARPS_X_, int TN_, int STAGES_, int MIN_BLOCKS_>
struct Shape {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, TM = 8, TN = TN_, STAGES = STAGES_;
  static constexpr int WARPS_Y = WARPS_Y_, WARPS_X = WARPS_X_, MIN_BLOCKS = MIN_BLOCKS_;
  static constexpr int WM = BM / WARPS_Y, WN = BN / WARPS_X;        // c per warp
  static constexpr int WARP_Y = WM / TM, WARP_X = WN / TN;          // threads of a warp
  static_assert(WARP_Y * WARP_X == 32, "a warp tile must hold 32 threads' TM x TN patches");
  static_assert(TN % 4 == 0 && BK % 4 == 0, "TN and BK must be multiples of 4");
  static constexpr int THREADS = 32 * WARPS_Y * WARPS_X;
  static constexpr int A_STRIDE = BK + 4;  // padded rows: consecutive rows start in different banks
  static constexpr int A_FLOATS = BM * A_STRIDE, B_FLOATS = BK * BN;
  static constexpr int STAGE_FLOATS = A_FLOATS + B_FLOATS;
  static constexpr int BYTES_VEC = STAGES * STAGE_FLOATS * static_cast<int>(sizeof(float));
  static constexpr int BYTES_STAGED = 2 * STAGE_FLOATS * static_cast<int>(sizeof(float));
  // 16-byte groups of each tile per thread, and the row step between them.
  static constexpr int A_GROUPS = BM * BK / 4 / THREADS, B_GROUPS = BK * BN / 4 / THREADS;
  static_assert(A_GROUPS * THREADS * 4 == BM * BK && B_GROUPS * THREADS * 4 == BK * BN,
                "the tiles must split evenly into 16-byte groups");
  static_assert(THREADS % (BK / 4) == 0 && THREADS % (BN / 4) == 0, "groups must tile whole rows");
  static constexpr int A_ROW_STEP = THREADS / (BK / 4), B_ROW_STEP = THREADS / (BN / 4);
};

// Row of the block tile (relative to the thread's first) of the thread's i-th
// row: two halves of the warp tile, 4 rows each, WARP_Y apart, so that one
// load instruction reads WARP_Y consecutive (bank-disjoint) rows of a.
template <class S> __device__ __forceinline__ constexpr int row_off(int i) {
  return (i / 4) * (S::WM / 2) + (i % 4) * S::WARP_Y;
}
// Column (relative to the thread's first) of sub-tile s: TN/4 float4, WARP_X*4 apart.
template <class S> __device__ __forceinline__ constexpr int col_off(int s) { return s * S::WARP_X * 4; }

// One step of BK: the thread's TM x TN patch += a tile (rows at `as`) * b tile (columns at `bs`).
template <class S>
__device__ __forceinline__ void multiply_tile(float (&acc)[S::TM][S::TN], const float* as, const float* bs) {
#pragma unroll
  for (int p = 0; p < S::BK; p += 4) {
    float4 av[S::TM];
#pragma unroll
    for (int i = 0; i < S::TM; ++i) av[i] = *reinterpret_cast<const float4*>(as + row_off<S>(i) * S::A_STRIDE + p);
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      float bv[S::TN];
#pragma unroll
      for (int s = 0; s < S::TN / 4; ++s) {
        const float4 v = *reinterpret_cast<const float4*>(bs + (p + q) * S::BN + col_off<S>(s));
        bv[4 * s] = v.x, bv[4 * s + 1] = v.y, bv[4 * s + 2] = v.z, bv[4 * s + 3] = v.w;
      }
#pragma unroll
      for (int i = 0; i < S::TM; ++i) {
        const float x = q == 0 ? av[i].x : q == 1 ? av[i].y : q == 2 ? av[i].z : av[i].w;
#pragma unroll
        for (int j = 0; j < S::TN; ++j) acc[i][j] = fmaf(x, bv[j], acc[i][j]);
      }
    }
  }
}

// Where a thread sits and what it copies (shared by both paths). Built from
// threadIdx / blockIdx passed in by the kernel.
template <class S> struct Place {
  int tid, row0, col0;
  int a_r, a_q, b_r, b_q;  // first group copied: a tile row a_r, column a_q; b tile row b_r, column b_q
  int frag_a, frag_b;      // offsets of the thread's first a row / b column in a stage
};
template <class S> __device__ __forceinline__ Place<S> make_place(int tid, int bx, int by) {
  Place<S> pl;
  const int warp = tid / 32, lane = tid % 32;
  const int wy = warp / S::WARPS_X, wx = warp % S::WARPS_X;
  const int ty = lane / S::WARP_X, tx = lane % S::WARP_X;
  pl.tid = tid;
  pl.row0 = by * S::BM, pl.col0 = bx * S::BN;
  pl.a_r = tid / (S::BK / 4), pl.a_q = (tid % (S::BK / 4)) * 4;
  pl.b_r = tid / (S::BN / 4), pl.b_q = (tid % (S::BN / 4)) * 4;
  pl.frag_a = (wy * S::WM + ty) * S::A_STRIDE;
  pl.frag_b = S::A_FLOATS + wx * S::WN + tx * 4;
  return pl;
}

// Writes the thread's patch of c (VEC: float4 stores, n a multiple of 4).
template <class S, bool VEC>
__device__ __forceinline__ void store_c(const float (&acc)[S::TM][S::TN], float* __restrict__ c, int m, int n,
                                        const Place<S>& pl) {
  const int warp = pl.tid / 32, lane = pl.tid % 32;
  const int wy = warp / S::WARPS_X, wx = warp % S::WARPS_X;
  const int ty = lane / S::WARP_X, tx = lane % S::WARP_X;
#pragma unroll
  for (int i = 0; i < S::TM; ++i) {
    const int row = pl.row0 + wy * S::WM + ty + row_off<S>(i);
    if (row >= m) continue;
    float* crow = c + static_cast<size_t>(row) * n;
#pragma unroll
    for (int s = 0; s < S::TN / 4; ++s) {
      const int col = pl.col0 + wx * S::WN + tx * 4 + col_off<S>(s);
      const float* v = &acc[i][4 * s];
      if (VEC) {
        if (col < n) *reinterpret_cast<float4*>(crow + col) = make_float4(v[0], v[1], v[2], v[3]);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (col + j < n) crow[col + j] = v[j];
      }
    }
  }
}

// ---- aligned rows: cp.async ring of STAGES tiles ---------------------------------------------

template <class S>
__global__ void __launch_bounds__(S::THREADS, S::MIN_BLOCKS)
    sgemm_async(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n, int k) {
  extern __shared__ __align__(16) float smem[];
  const Place<S> pl = make_place<S>(threadIdx.x, blockIdx.x, blockIdx.y);
  const float* a_src = a + static_cast<size_t>(pl.row0 + pl.a_r) * k + pl.a_q;
  const float* b_src = b + static_cast<size_t>(pl.b_r) * n + pl.col0 + pl.b_q;
  const size_t a_step = static_cast<size_t>(S::A_ROW_STEP) * k, b_step = static_cast<size_t>(S::B_ROW_STEP) * n;
  const int a_rows_left = m - pl.row0 - pl.a_r;
  const int b_cols_left = n - pl.col0 - pl.b_q;
  const bool inside = pl.row0 + S::BM <= m && pl.col0 + S::BN <= n;
  const int full_steps = k / S::BK;  // steps whose BK columns of a / rows of b all lie inside

  auto load_tiles = [&](int stage, int kt) {
    float* as = smem + stage * S::STAGE_FLOATS;
    float* bs = as + S::A_FLOATS;
    const float* ap = a_src + kt * S::BK;
    const float* bp = b_src + static_cast<size_t>(kt) * S::BK * n;
    if (inside && kt < full_steps) {
#pragma unroll
      for (int e = 0; e < S::A_GROUPS; ++e)
        __pipeline_memcpy_async(as + (pl.a_r + e * S::A_ROW_STEP) * S::A_STRIDE + pl.a_q, ap + e * a_step, 16);
#pragma unroll
      for (int e = 0; e < S::B_GROUPS; ++e)
        __pipeline_memcpy_async(bs + (pl.b_r + e * S::B_ROW_STEP) * S::BN + pl.b_q, bp + e * b_step, 16);
    } else {
      const int a_cols_left = k - kt * S::BK - pl.a_q;
      const int b_rows_left = k - kt * S::BK - pl.b_r;
#pragma unroll
      for (int e = 0; e < S::A_GROUPS; ++e) {
        float* dst = as + (pl.a_r + e * S::A_ROW_STEP) * S::A_STRIDE + pl.a_q;
        if (e * S::A_ROW_STEP < a_rows_left && a_cols_left > 0) __pipeline_memcpy_async(dst, ap + e * a_step, 16);
        else *reinterpret_cast<float4*>(dst) = make_float4(0.f, 0.f, 0.f, 0.f);
      }
#pragma unroll
      for (int e = 0; e < S::B_GROUPS; ++e) {
        float* dst = bs + (pl.b_r + e * S::B_ROW_STEP) * S::BN + pl.b_q;
        if (e * S::B_ROW_STEP < b_rows_left && b_cols_left > 0) __pipeline_memcpy_async(dst, bp + e * b_step, 16);
        else *reinterpret_cast<float4*>(dst) = make_float4(0.f, 0.f, 0.f, 0.f);
      }
    }
  };

  float acc[S::TM][S::TN];
#pragma unroll
  for (int i = 0; i < S::TM; ++i)
#pragma unroll
    for (int j = 0; j < S::TN; ++j) acc[i][j] = 0.0f;

  const int steps = (k + S::BK - 1) / S::BK;
#pragma unroll
  for (int s = 0; s < S::STAGES - 1; ++s) {
    if (s < steps) load_tiles(s, s);
    __pipeline_commit();
  }
  int stage = 0;                     // buffer of tile t
  int next_stage = S::STAGES - 1;    // buffer of tile t + STAGES - 1
  for (int t = 0; t < steps; ++t) {
    __pipeline_wait_prior(S::STAGES - 2);
    __syncthreads();  // tile t landed for all; tile t-1's buffer is free
    if (t + S::STAGES - 1 < steps) load_tiles(next_stage, t + S::STAGES - 1);
    __pipeline_commit();
    const float* base = smem + stage * S::STAGE_FLOATS;
    multiply_tile<S>(acc, base + pl.frag_a, base + pl.frag_b);
    stage = stage + 1 == S::STAGES ? 0 : stage + 1;
    next_stage = next_stage + 1 == S::STAGES ? 0 : next_stage + 1;
  }
  __pipeline_wait_prior(0);
  store_c<S, true>(acc, c, m, n, pl);
}

// ---- unaligned rows: register-staged, two shared buffers -------------------------------------

template <class S>
__global__ void __launch_bounds__(S::THREADS, S::MIN_BLOCKS)
    sgemm_staged(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n, int k) {
  extern __shared__ __align__(16) float smem[];
  const Place<S> pl = make_place<S>(threadIdx.x, blockIdx.x, blockIdx.y);
  const bool inside = pl.row0 + S::BM <= m && pl.col0 + S::BN <= n;
  const int full_steps = k / S::BK;
  const int a_rows_left = m - pl.row0 - pl.a_r;
  const int b_cols_left = n - pl.col0 - pl.b_q;
  const float* a_src = a + static_cast<size_t>(pl.row0 + pl.a_r) * k + pl.a_q;
  const float* b_src = b + static_cast<size_t>(pl.b_r) * n + pl.col0 + pl.b_q;
  const size_t a_step = static_cast<size_t>(S::A_ROW_STEP) * k, b_step = static_cast<size_t>(S::B_ROW_STEP) * n;

  float4 a_next[S::A_GROUPS], b_next[S::B_GROUPS];
  auto fetch = [&](int kt) {
    const float* ap = a_src + kt * S::BK;
    const float* bp = b_src + static_cast<size_t>(kt) * S::BK * n;
    if (inside && kt < full_steps) {
#pragma unroll
      for (int e = 0; e < S::A_GROUPS; ++e) {
        const float* p = ap + e * a_step;
        a_next[e] = make_float4(p[0], p[1], p[2], p[3]);
      }
#pragma unroll
      for (int e = 0; e < S::B_GROUPS; ++e) {
        const float* p = bp + e * b_step;
        b_next[e] = make_float4(p[0], p[1], p[2], p[3]);
      }
    } else {
      const int a_cols_left = k - kt * S::BK - pl.a_q;
      const int b_rows_left = k - kt * S::BK - pl.b_r;
#pragma unroll
      for (int e = 0; e < S::A_GROUPS; ++e) {
        const float* p = ap + e * a_step;
        const bool row_in = e * S::A_ROW_STEP < a_rows_left;
        float v[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) v[j] = row_in && j < a_cols_left ? p[j] : 0.0f;
        a_next[e] = make_float4(v[0], v[1], v[2], v[3]);
      }
#pragma unroll
      for (int e = 0; e < S::B_GROUPS; ++e) {
        const float* p = bp + e * b_step;
        const bool row_in = e * S::B_ROW_STEP < b_rows_left;
        float v[4];
#pragma unroll
        for (int j = 0; j < 4; ++j) v[j] = row_in && j < b_cols_left ? p[j] : 0.0f;
        b_next[e] = make_float4(v[0], v[1], v[2], v[3]);
      }
    }
  };
  auto stash = [&](int buf) {
    float* as = smem + buf * S::STAGE_FLOATS;
    float* bs = as + S::A_FLOATS;
#pragma unroll
    for (int e = 0; e < S::A_GROUPS; ++e)
      *reinterpret_cast<float4*>(as + (pl.a_r + e * S::A_ROW_STEP) * S::A_STRIDE + pl.a_q) = a_next[e];
#pragma unroll
    for (int e = 0; e < S::B_GROUPS; ++e)
      *reinterpret_cast<float4*>(bs + (pl.b_r + e * S::B_ROW_STEP) * S::BN + pl.b_q) = b_next[e];
  };

  float acc[S::TM][S::TN];
#pragma unroll
  for (int i = 0; i < S::TM; ++i)
#pragma unroll
    for (int j = 0; j < S::TN; ++j) acc[i][j] = 0.0f;

  const int steps = (k + S::BK - 1) / S::BK;
  if (steps > 0) {
    fetch(0);
    stash(0);
  }
  __syncthreads();
  for (int t = 0; t < steps; ++t) {
    const int cur = t & 1;
    if (t + 1 < steps) fetch(t + 1);  // in flight during the arithmetic below
    const float* base = smem + cur * S::STAGE_FLOATS;
    multiply_tile<S>(acc, base + pl.frag_a, base + pl.frag_b);
    // The other buffer was last read in step t-1, finished by every thread
    // before the barrier that ended it.
    if (t + 1 < steps) stash(cur ^ 1);
    __syncthreads();
  }
  store_c<S, false>(acc, c, m, n, pl);
}

inline bool rows_aligned(const float* a, const float* b, const float* c, int n, int k) {
  return k % 4 == 0 && n % 4 == 0 && reinterpret_cast<uintptr_t>(a) % 16 == 0 &&
         reinterpret_cast<uintptr_t>(b) % 16 == 0 && reinterpret_cast<uintptr_t>(c) % 16 == 0;
}

// Runs shape S: the cp.async kernel for aligned rows, the register-staged one otherwise.
template <class S> void launch(const float* a, const float* b, float* c, int m, int n, int k) {
  if (m <= 0 || n <= 0) return;
  const dim3 grid((n + S::BN - 1) / S::BN, (m + S::BM - 1) / S::BM);
  if (rows_aligned(a, b, c, n, k)) {
    static bool raised = false;  // above 48 KB a kernel must ask for its shared memory
    if (!raised) {
      cudaFuncSetAttribute(sgemm_async<S>, cudaFuncAttributeMaxDynamicSharedMemorySize, S::BYTES_VEC);
      raised = true;
    }
    sgemm_async<S><<<grid, S::THREADS, S::BYTES_VEC>>>(a, b, c, m, n, k);
  } else {
    static bool raised = false;
    if (!raised) {
      cudaFuncSetAttribute(sgemm_staged<S>, cudaFuncAttributeMaxDynamicSharedMemorySize, S::BYTES_STAGED);
      raised = true;
    }
    sgemm_staged<S><<<grid, S::THREADS, S::BYTES_STAGED>>>(a, b, c, m, n, k);
  }
}

// The shapes the bench times (name: block tile, warp tile, thread tile, BK, stages).
// cuBLAS's SIMT arrangement: 4 warps of 64 x 64, 8 x 16 per thread.
using C128x128_w64x64_t8x16_bk8 = Shape<128, 128, 8, 2, 2, 16, 4, 2>;
using C128x128_w64x64_t8x16_bk16 = Shape<128, 128, 16, 2, 2, 16, 3, 2>;
// Small blocks (as the reference's 64 x 64 shape) with 8 x 16 per thread.
using C128x64_w64x64_t8x16_bk16 = Shape<128, 64, 16, 2, 1, 16, 3, 3>;
using C64x64_w64x64_t8x16_bk8 = Shape<64, 64, 8, 1, 1, 16, 4, 6>;
// 256 threads of 8 x 8, warps 64 x 32 (4 x 4 sub-tiles), 128 registers.
using C128x128_w64x32_t8x8_bk8 = Shape<128, 128, 8, 2, 4, 8, 4, 1>;

}  // namespace candidates
