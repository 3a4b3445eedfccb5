// Candidate FP32 SGEMM kernels for the matmul reference's tuning bench
// (bench/references/matmul_variants.cu): c = a * b, row-major, a (m x k),
// b (k x n), c (m x n), any sizes, FFMA only. Written by hand for the bench;
// the reference (reference/matmul/matmul.cu) is not changed by this file.
//
// What they try, against the reference's 64 x 64 x 16 kernel (a row-major in
// shared memory, read as four k of one row per 16-byte load):
//   * a stored transposed in shared memory (as[k][row], rows padded by 4
//     floats): one k step of a thread's 8 x 8 patch is 2 + 2 16-byte shared
//     loads (4 rows of a twice, 4 columns of b twice) and 64 FFMA;
//   * fragments double-buffered in registers across the k steps of a tile
//     (the loads of step p+1 issued before the FFMAs of step p);
//   * 128 x 128 block tiles of 256 threads (8 warps of 32 x 64 or 64 x 32)
//     under __launch_bounds__(256, 2): at most 128 registers, two blocks per
//     SM (and 128 x 64 / 64 x 128 / 64 x 64 shapes);
//   * two ways to feed the tiles: Feed::Regs, the next tile's global loads
//     (16-byte, or 4-byte for unaligned rows) issued into registers before the
//     current tile's arithmetic and stored to the other of two shared buffers
//     after it; Feed::Async, a STAGES-deep cp.async ring (a copied as 4-byte
//     elements into the transposed tile, b as 16-byte groups, or 4-byte for
//     unaligned rows);
//   * no bounds tests for blocks whose tile lies inside the matrices (only the
//     last k step of a ragged k, and edge blocks, take the checked loads).
#pragma once
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace mmcand {

enum class Feed { Regs, Async };

// BM x BN block tile, BK deep, warps of WM x WN, 8 x 8 per thread (two 4 x 4
// groups in each direction, half a warp tile apart).
template <int BM_, int BN_, int BK_, int WM_, int WN_, Feed FEED_, int STAGES_, int MIN_BLOCKS_, int TN_ = 8>
struct Shape {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, TN = TN_;
  static constexpr Feed FEED = FEED_;
  static constexpr int STAGES = FEED_ == Feed::Regs ? 2 : STAGES_;
  static constexpr int MIN_BLOCKS = MIN_BLOCKS_;
  static constexpr int WARP_Y = WM / 8, WARP_X = WN / TN;  // threads of a warp
  static_assert(WARP_Y * WARP_X == 32, "a warp tile must hold 32 threads' 8 x TN patches");
  static_assert(TN % 4 == 0, "TN must be a multiple of 4");
  static constexpr int WARPS_Y = BM / WM, WARPS_X = BN / WN;
  static constexpr int THREADS = 32 * WARPS_Y * WARPS_X;
  static constexpr int A_LD = BM + 4;  // floats per k-row of the transposed a tile
  static constexpr int B_LD = BN;
  static constexpr int A_FLOATS = BK * A_LD, STAGE_FLOATS = A_FLOATS + BK * B_LD;
  static constexpr int SHARED_BYTES = STAGES * STAGE_FLOATS * static_cast<int>(sizeof(float));
  // 16-byte groups and single elements of each tile per thread.
  static constexpr int A_VECS = BM * BK / 4 / THREADS, B_VECS = BK * BN / 4 / THREADS;
  static constexpr int A_ELEMS = BM * BK / THREADS, B_ELEMS = BK * BN / THREADS;
  static_assert(A_VECS * THREADS * 4 == BM * BK && B_VECS * THREADS * 4 == BK * BN, "tiles must split into groups");
  static_assert(THREADS % (BK / 4) == 0 && THREADS % (BN / 4) == 0, "groups must tile whole rows");
  static_assert(THREADS % BK == 0 && THREADS % BN == 0, "elements must tile whole rows");
};

// What a thread copies of each tile. VEC: 16-byte groups (a: row ar + e*A_STEP,
// k aq..aq+3; b: k-row br + e*B_STEP, columns bq..bq+3); otherwise single
// elements (a: row ar + e*A_STEP, k aq; b: k-row br + e*B_STEP, column bq).
template <class S, bool VEC> struct Copies {
  static constexpr int A_N = VEC ? S::A_VECS : S::A_ELEMS, B_N = VEC ? S::B_VECS : S::B_ELEMS;
  static constexpr int A_STEP = VEC ? S::THREADS / (S::BK / 4) : S::THREADS / S::BK;
  static constexpr int B_STEP = VEC ? S::THREADS / (S::BN / 4) : S::THREADS / S::BN;
  int ar, aq, br, bq;
  __device__ __forceinline__ explicit Copies(int tid) {
    if (VEC) {
      ar = tid / (S::BK / 4), aq = (tid % (S::BK / 4)) * 4;
      br = tid / (S::BN / 4), bq = (tid % (S::BN / 4)) * 4;
    } else {
      ar = tid / S::BK, aq = tid % S::BK;
      br = tid / S::BN, bq = tid % S::BN;
    }
  }
};

// One k step of the tile: acc += a column (8 rows) x b row (8 columns), the
// next step's fragments loaded before this step's FFMAs.
template <class S>
__device__ __forceinline__ void multiply_tile(float (&acc)[8][S::TN], const float* __restrict__ as,
                                              const float* __restrict__ bs) {
  float af[2][8], bf[2][S::TN];
  auto load = [&](int buf, int p) {
    const float4 a0 = *reinterpret_cast<const float4*>(as + p * S::A_LD);
    const float4 a1 = *reinterpret_cast<const float4*>(as + p * S::A_LD + S::WM / 2);
    af[buf][0] = a0.x, af[buf][1] = a0.y, af[buf][2] = a0.z, af[buf][3] = a0.w;
    af[buf][4] = a1.x, af[buf][5] = a1.y, af[buf][6] = a1.z, af[buf][7] = a1.w;
#pragma unroll
    for (int g = 0; g < S::TN / 4; ++g) {
      const float4 bv = *reinterpret_cast<const float4*>(bs + p * S::B_LD + g * S::WARP_X * 4);
      bf[buf][4 * g] = bv.x, bf[buf][4 * g + 1] = bv.y, bf[buf][4 * g + 2] = bv.z, bf[buf][4 * g + 3] = bv.w;
    }
  };
  load(0, 0);
#pragma unroll
  for (int p = 0; p < S::BK; ++p) {
    if (p + 1 < S::BK) load((p + 1) & 1, p + 1);
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
      for (int j = 0; j < S::TN; ++j) acc[i][j] = fmaf(af[p & 1][i], bf[p & 1][j], acc[i][j]);
  }
}

template <class S, bool VEC>
__device__ __forceinline__ void store_c(const float (&acc)[8][S::TN], float* __restrict__ c, int m, int n, int row_base,
                                        int col_base) {
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    const int row = row_base + (i / 4) * (S::WM / 2) + (i % 4);
    if (row >= m) continue;
    float* crow = c + static_cast<size_t>(row) * n;
#pragma unroll
    for (int h = 0; h < S::TN / 4; ++h) {
      const int col = col_base + h * S::WARP_X * 4;
      const float* v = &acc[i][h * 4];
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

// ---- Feed::Regs: register prefetch, two shared buffers ----------------------------------------

template <class S, bool VEC> struct RegStage {
  using CP = Copies<S, VEC>;
  using AT = typename std::conditional<VEC, float4, float>::type;
  AT ra[CP::A_N];
  AT rb[CP::B_N];

  template <bool CHECK>
  __device__ __forceinline__ void fetch(const float* __restrict__ a_src, const float* __restrict__ b_src,
                                        size_t a_step, size_t b_step, int n, int kt, int a_rows_left,
                                        int a_k_left, int b_k_left, int b_cols_left) {
    const int k0 = kt * S::BK;
    const float* ap = a_src + k0;
    const float* bp = b_src + static_cast<size_t>(k0) * n;
#pragma unroll
    for (int e = 0; e < CP::A_N; ++e) {
      const bool in = !CHECK || (e * CP::A_STEP < a_rows_left && k0 < a_k_left);
      if (VEC) {
        float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
        if (in) v = *reinterpret_cast<const float4*>(ap + e * a_step);
        reinterpret_cast<float4*>(ra)[e] = v;
      } else {
        reinterpret_cast<float*>(ra)[e] = in ? ap[e * a_step] : 0.0f;
      }
    }
#pragma unroll
    for (int e = 0; e < CP::B_N; ++e) {
      const bool in = !CHECK || (k0 + e * CP::B_STEP < b_k_left && 0 < b_cols_left);
      if (VEC) {
        float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
        if (in) v = *reinterpret_cast<const float4*>(bp + e * b_step);
        reinterpret_cast<float4*>(rb)[e] = v;
      } else {
        reinterpret_cast<float*>(rb)[e] = in ? bp[e * b_step] : 0.0f;
      }
    }
  }

  __device__ __forceinline__ void stash(float* as, float* bs, const CP& cp) const {
#pragma unroll
    for (int e = 0; e < CP::A_N; ++e) {
      const int r = cp.ar + e * CP::A_STEP;
      if (VEC) {
        const float4 v = reinterpret_cast<const float4*>(ra)[e];
        as[(cp.aq + 0) * S::A_LD + r] = v.x;
        as[(cp.aq + 1) * S::A_LD + r] = v.y;
        as[(cp.aq + 2) * S::A_LD + r] = v.z;
        as[(cp.aq + 3) * S::A_LD + r] = v.w;
      } else {
        as[cp.aq * S::A_LD + r] = reinterpret_cast<const float*>(ra)[e];
      }
    }
#pragma unroll
    for (int e = 0; e < CP::B_N; ++e) {
      const int p = cp.br + e * CP::B_STEP;
      if (VEC) *reinterpret_cast<float4*>(bs + p * S::B_LD + cp.bq) = reinterpret_cast<const float4*>(rb)[e];
      else bs[p * S::B_LD + cp.bq] = reinterpret_cast<const float*>(rb)[e];
    }
  }
};

template <class S, bool VEC>
__global__ void __launch_bounds__(S::THREADS, S::MIN_BLOCKS)
    sgemm_cand_regs(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n,
                    int k) {
  extern __shared__ float4 smem4[];
  float* smem = reinterpret_cast<float*>(smem4);
  using CP = Copies<S, VEC>;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wy = warp / S::WARPS_X, wx = warp % S::WARPS_X;
  const int ty = lane / S::WARP_X, tx = lane % S::WARP_X;
  const int row0 = blockIdx.y * S::BM, col0 = blockIdx.x * S::BN;
  const int frag_a = wy * S::WM + ty * 4, frag_b = wx * S::WN + tx * 4;

  const CP cp(tid);
  const float* a_src = a + static_cast<size_t>(row0 + cp.ar) * k + cp.aq;
  const float* b_src = b + static_cast<size_t>(cp.br) * n + col0 + cp.bq;
  const size_t a_step = static_cast<size_t>(CP::A_STEP) * k, b_step = static_cast<size_t>(CP::B_STEP) * n;
  const int a_rows_left = m - row0 - cp.ar, a_k_left = k - cp.aq;
  const int b_k_left = k - cp.br, b_cols_left = n - col0 - cp.bq;
  const bool inside = row0 + S::BM <= m && col0 + S::BN <= n;
  const int steps = (k + S::BK - 1) / S::BK;
  const int full_steps = inside ? k / S::BK : 0;  // steps whose tiles lie wholly inside

  RegStage<S, VEC> st;
  auto fetch = [&](int kt) {
    if (kt < full_steps) st.template fetch<false>(a_src, b_src, a_step, b_step, n, kt, 0, 0, 0, 0);
    else st.template fetch<true>(a_src, b_src, a_step, b_step, n, kt, a_rows_left, a_k_left, b_k_left, b_cols_left);
  };

  float acc[8][S::TN];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < S::TN; ++j) acc[i][j] = 0.0f;

  fetch(0);
  st.stash(smem, smem + S::A_FLOATS, cp);
  __syncthreads();
  for (int t = 0; t < steps; ++t) {
    float* cur = smem + (t & 1) * S::STAGE_FLOATS;
    float* nxt = smem + ((t + 1) & 1) * S::STAGE_FLOATS;
    const bool more = t + 1 < steps;
    if (more) fetch(t + 1);
    multiply_tile<S>(acc, cur + frag_a, cur + S::A_FLOATS + frag_b);
    if (more) st.stash(nxt, nxt + S::A_FLOATS, cp);
    __syncthreads();
  }
  store_c<S, VEC>(acc, c, m, n, row0 + frag_a, col0 + frag_b);
}

// ---- Feed::Async: cp.async ring of STAGES tiles ------------------------------------------------

template <class S, bool VEC>
__global__ void __launch_bounds__(S::THREADS, S::MIN_BLOCKS)
    sgemm_cand_async(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n,
                     int k) {
  extern __shared__ float4 smem4[];
  float* smem = reinterpret_cast<float*>(smem4);
  using CA = Copies<S, false>;  // a: single elements into the transposed tile
  using CB = Copies<S, VEC>;    // b: 16-byte groups when rows are aligned
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  const int wy = warp / S::WARPS_X, wx = warp % S::WARPS_X;
  const int ty = lane / S::WARP_X, tx = lane % S::WARP_X;
  const int row0 = blockIdx.y * S::BM, col0 = blockIdx.x * S::BN;
  const int frag_a = wy * S::WM + ty * 4, frag_b = wx * S::WN + tx * 4;

  const CA ca(tid);
  const CB cb(tid);
  const float* a_src = a + static_cast<size_t>(row0 + ca.ar) * k + ca.aq;
  const float* b_src = b + static_cast<size_t>(cb.br) * n + col0 + cb.bq;
  const size_t a_step = static_cast<size_t>(CA::A_STEP) * k, b_step = static_cast<size_t>(CB::B_STEP) * n;
  const int a_rows_left = m - row0 - ca.ar, a_k_left = k - ca.aq;
  const int b_k_left = k - cb.br, b_cols_left = n - col0 - cb.bq;
  const bool inside = row0 + S::BM <= m && col0 + S::BN <= n;
  const int steps = (k + S::BK - 1) / S::BK;
  const int full_steps = inside ? k / S::BK : 0;
  // This thread's shared destinations, relative to a stage.
  const int a_dst = ca.aq * S::A_LD + ca.ar, b_dst = S::A_FLOATS + cb.br * S::B_LD + cb.bq;

  auto issue = [&](int stage, int kt) {
    float* base = smem + stage * S::STAGE_FLOATS;
    const int k0 = kt * S::BK;
    const float* ap = a_src + k0;
    const float* bp = b_src + static_cast<size_t>(k0) * n;
    if (kt < full_steps) {
#pragma unroll
      for (int e = 0; e < CA::A_N; ++e) __pipeline_memcpy_async(base + a_dst + e * CA::A_STEP, ap + e * a_step, 4);
#pragma unroll
      for (int e = 0; e < CB::B_N; ++e)
        __pipeline_memcpy_async(base + b_dst + e * CB::B_STEP * S::B_LD, bp + e * b_step, VEC ? 16 : 4);
    } else {
#pragma unroll
      for (int e = 0; e < CA::A_N; ++e) {
        float* d = base + a_dst + e * CA::A_STEP;
        if (e * CA::A_STEP < a_rows_left && k0 < a_k_left) __pipeline_memcpy_async(d, ap + e * a_step, 4);
        else *d = 0.0f;
      }
#pragma unroll
      for (int e = 0; e < CB::B_N; ++e) {
        float* d = base + b_dst + e * CB::B_STEP * S::B_LD;
        if (k0 + e * CB::B_STEP < b_k_left && 0 < b_cols_left) {
          __pipeline_memcpy_async(d, bp + e * b_step, VEC ? 16 : 4);
        } else if (VEC) {
          *reinterpret_cast<float4*>(d) = make_float4(0.f, 0.f, 0.f, 0.f);
        } else {
          *d = 0.0f;
        }
      }
    }
  };

  float acc[8][S::TN];
#pragma unroll
  for (int i = 0; i < 8; ++i)
#pragma unroll
    for (int j = 0; j < S::TN; ++j) acc[i][j] = 0.0f;

#pragma unroll
  for (int s = 0; s < S::STAGES - 1; ++s) {
    if (s < steps) issue(s, s);
    __pipeline_commit();
  }
  for (int t = 0; t < steps; ++t) {
    __pipeline_wait_prior(S::STAGES - 2);
    __syncthreads();
    if (t + S::STAGES - 1 < steps) issue((t + S::STAGES - 1) % S::STAGES, t + S::STAGES - 1);
    __pipeline_commit();
    const float* cur = smem + (t % S::STAGES) * S::STAGE_FLOATS;
    multiply_tile<S>(acc, cur + frag_a, cur + S::A_FLOATS + frag_b);
  }
  __pipeline_wait_prior(0);
  store_c<S, VEC>(acc, c, m, n, row0 + frag_a, col0 + frag_b);
}

// ---- launch ------------------------------------------------------------------------------------

template <class S, bool VEC> void launch_as(const float* a, const float* b, float* c, int m, int n, int k) {
  void (*kernel)(const float*, const float*, float*, int, int, int);
  if constexpr (S::FEED == Feed::Regs) kernel = sgemm_cand_regs<S, VEC>;
  else kernel = sgemm_cand_async<S, VEC>;
  static bool raised = false;
  if (!raised) {
    cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, S::SHARED_BYTES);
    raised = true;
  }
  const dim3 grid((n + S::BN - 1) / S::BN, (m + S::BM - 1) / S::BM);
  kernel<<<grid, S::THREADS, S::SHARED_BYTES>>>(a, b, c, m, n, k);
}

template <class S> void launch(const float* a, const float* b, float* c, int m, int n, int k) {
  const bool aligned = k % 4 == 0 && n % 4 == 0 && reinterpret_cast<uintptr_t>(a) % 16 == 0 &&
                       reinterpret_cast<uintptr_t>(b) % 16 == 0 && reinterpret_cast<uintptr_t>(c) % 16 == 0;
  if (aligned) launch_as<S, true>(a, b, c, m, n, k);
  else launch_as<S, false>(a, b, c, m, n, k);
}

}  // namespace mmcand
