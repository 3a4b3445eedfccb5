// Reference solution of the matmul lab (hidden from students): c = a * b for
// row-major float matrices of any size, a (m x k), b (k x n), c (m x n), in
// plain fp32 on the CUDA cores (no tensor cores).
//
// It is the course's tiled kernel (README "Step 2: the tiled kernel": tiles of
// a and b staged in shared memory, zeros for tile elements outside the
// matrices, a barrier between loading a tile and using it) pushed to where the
// multiply-add units, not memory, are the limit. Each technique and why:
//   * Register blocking (README "Going further"): a block computes a BM x BN
//     tile of c, each thread an 8 x 8 patch held in 64 registers. Every value
//     read from shared memory feeds 8 multiply-adds, so the shared-memory
//     loads are a sixteenth of the instructions and the FFMAs the rest.
//   * Warp tiling: the 32 threads of a warp cover a compact WM x WN patch of
//     c (4 x 8 or 8 x 4 threads), so one shared-memory load instruction of the
//     warp touches only 4 or 8 different rows of a and 8 or 4 different
//     16-byte groups of b: broadcasts, no bank conflicts (README
//     "Shared-memory banks").
//   * Both tiles are kept as they lie in memory (a: rows of k, b: rows of n)
//     and read as 16-byte vectors (float4): a thread takes four consecutive k
//     of one row of a in one load, and four consecutive columns of b. The a
//     tile's rows are padded by 4 floats so that the rows a warp reads at once
//     start in different banks (row stride BK + 4 words).
//   * Asynchronous copies (cp.async through cuda_pipeline.h) move the tiles
//     from global to shared memory without passing through registers, STAGES
//     tiles deep: while the block multiplies tile t, tiles t+1 .. t+STAGES-1
//     are on their way, so the memory latency hides behind arithmetic and one
//     barrier per tile suffices (it also tells every thread that the buffer
//     it refills next is no longer read).
//   * Global loads are 16 bytes wide and coalesced: they need rows that start
//     on 16-byte boundaries (k and n multiples of 4, aligned pointers). Tile
//     elements outside the matrices are zeros written straight into shared
//     memory (a zero adds nothing, README "Any size"), and only the stores of
//     c are guarded: aligned sizes pay one comparison per copy and per store.
//     Unaligned rows take the register-staged kernel at the end of this file.
// Tunables are the template arguments of Config (chosen by measurement on an
// H200, docs/performance.md).
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int THREAD_M = 8;  // rows of c per thread (two groups of 4)
constexpr int THREAD_N = 8;  // columns of c per thread (two float4)
constexpr int A_PAD = 4;     // floats of padding after each row of the a tile

// BM x BN block tile, BK deep; WM x WN per warp; STAGES tiles in flight;
// MIN_BLOCKS resident blocks per SM the register budget must allow.
template <int BM_, int BN_, int BK_, int WM_, int WN_, int STAGES_, int MIN_BLOCKS_> struct Config {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, STAGES = STAGES_;
  static constexpr int MIN_BLOCKS = MIN_BLOCKS_;
  static constexpr int WARP_Y = WM / THREAD_M, WARP_X = WN / THREAD_N;  // threads of a warp
  static_assert(WARP_Y * WARP_X == 32, "a warp tile must hold 32 threads' 8 x 8 patches");
  static constexpr int WARPS_Y = BM / WM, WARPS_X = BN / WN;
  static constexpr int THREADS = 32 * WARPS_Y * WARPS_X;
  static constexpr int A_STRIDE = BK + A_PAD;  // floats per row of the a tile
  static constexpr int A_FLOATS = BM * A_STRIDE, B_FLOATS = BK * BN;
  static constexpr int STAGE_FLOATS = A_FLOATS + B_FLOATS;
  static constexpr int SHARED_BYTES = STAGES * STAGE_FLOATS * static_cast<int>(sizeof(float));
  // 16-byte chunks of each tile, and how many each thread copies.
  static constexpr int A_CHUNKS = BM * BK / 4, B_CHUNKS = BK * BN / 4;
  static_assert(A_CHUNKS % THREADS == 0 && B_CHUNKS % THREADS == 0, "the tiles must split evenly into 16-byte copies");
  static_assert(BK % 4 == 0 && STAGES >= 2, "BK must be a multiple of 4, STAGES at least 2");
};

// 64 x 64 tiles of 2 warps (64 threads, up to 168 registers each), 3 stages:
// the fastest shape measured on an H200 (0.86-0.88x cuBLAS at 2048^3 to
// 8192^3; 128 x 128 tiles of 256 threads, capped at 128 registers: 0.80-0.86x,
// docs/performance.md). Small blocks give many of them per SM (6), so that one
// block's barrier wait is hidden by the others' arithmetic.
using Tiles = Config<64, 64, 16, 32, 64, 3, 4>;

// One 16-byte group of a tile, 4 consecutive floats of a row starting at src
// of which `left` lie inside the matrix: copied asynchronously when inside,
// zeros written otherwise. VEC: the row length is a multiple of 4, so the
// group is 16-byte aligned and all inside or all outside. Otherwise each float
// is copied on its own (4-byte copies need only 4-byte alignment).
template <bool VEC>
__device__ __forceinline__ void copy_group(float* dst, const float* src, int left, bool row_inside) {
  if (VEC) {
    if (row_inside && left > 0) __pipeline_memcpy_async(dst, src, 16);
    else *reinterpret_cast<float4*>(dst) = make_float4(0.f, 0.f, 0.f, 0.f);
  } else {
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      if (row_inside && e < left) __pipeline_memcpy_async(dst + e, src + e, 4);
      else dst[e] = 0.0f;
    }
  }
}

template <class C, bool VEC>
__global__ void __launch_bounds__(C::THREADS, C::MIN_BLOCKS)
    sgemm_tiled(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n, int k) {
  extern __shared__ __align__(16) float smem[];
  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int row0 = blockIdx.y * C::BM, col0 = blockIdx.x * C::BN;
  // This thread's place: warp (wy, wx) of the block, thread (ty, tx) of the warp.
  const int wy = warp / C::WARPS_X, wx = warp % C::WARPS_X;
  const int ty = lane / C::WARP_X, tx = lane % C::WARP_X;
  // Its rows of the block tile: wy*WM + h*(WM/2) + i*WARP_Y + ty (h < 2, i < 4),
  // interleaved so that the rows one load instruction reads are consecutive
  // (consecutive rows of the padded a tile start in different banks). Its
  // columns: wx*WN + h*(WN/2) + tx*4 + j (two float4 per row of b).
  const int a_row = wy * C::WM + ty;
  const int b_col = wx * C::WN + tx * 4;

  // The 16-byte groups this thread copies: in the a tile, group e is row
  // a_r + e * A_ROW_STEP, columns a_q .. a_q+3 (consecutive threads along a
  // row: coalesced); in the b tile, row b_r + e * B_ROW_STEP, columns b_q ...
  // Only the rows change with e, so one pointer per matrix walks along k.
  constexpr int A_PER_THREAD = C::A_CHUNKS / C::THREADS, A_ROW_STEP = C::THREADS / (C::BK / 4);
  constexpr int B_PER_THREAD = C::B_CHUNKS / C::THREADS, B_ROW_STEP = C::THREADS / (C::BN / 4);
  const int a_r = tid / (C::BK / 4), a_q = (tid % (C::BK / 4)) * 4;
  const int b_r = tid / (C::BN / 4), b_q = (tid % (C::BN / 4)) * 4;
  const float* a_src = a + static_cast<size_t>(row0 + a_r) * k + a_q;  // advances by BK per step
  const float* b_src = b + static_cast<size_t>(b_r) * n + col0 + b_q;  // advances by BK rows per step
  const size_t a_step = static_cast<size_t>(A_ROW_STEP) * k, b_step = static_cast<size_t>(B_ROW_STEP) * n;
  const int a_rows_left = m - row0 - a_r;  // group e's row is inside a when e * A_ROW_STEP < this
  const int b_cols_left = n - col0 - b_q;  // columns inside b from this thread's first one

  // Starts copying the tiles of step kt into buffer `stage`.
  auto load_tiles = [&](int stage, int kt) {
    float* as = smem + stage * C::STAGE_FLOATS;
    float* bs = as + C::A_FLOATS;
    const int a_cols_left = k - kt * C::BK - a_q;
    const int b_rows_left = k - kt * C::BK - b_r;
    const float* ap = a_src + kt * C::BK;
    const float* bp = b_src + static_cast<size_t>(kt) * C::BK * n;
#pragma unroll
    for (int e = 0; e < A_PER_THREAD; ++e)
      copy_group<VEC>(as + (a_r + e * A_ROW_STEP) * C::A_STRIDE + a_q, ap + e * a_step, a_cols_left,
                      e * A_ROW_STEP < a_rows_left);
#pragma unroll
    for (int e = 0; e < B_PER_THREAD; ++e)
      copy_group<VEC>(bs + (b_r + e * B_ROW_STEP) * C::BN + b_q, bp + e * b_step, b_cols_left,
                      e * B_ROW_STEP < b_rows_left);
  };

  float acc[THREAD_M][THREAD_N];
#pragma unroll
  for (int i = 0; i < THREAD_M; ++i)
#pragma unroll
    for (int j = 0; j < THREAD_N; ++j) acc[i][j] = 0.0f;

  const int steps = (k + C::BK - 1) / C::BK;
  // Prologue: the first STAGES-1 tiles on their way (a commit per tile, even an
  // empty one, so that "tile t has landed" is always "all but the newest
  // STAGES-2 batches").
#pragma unroll
  for (int s = 0; s < C::STAGES - 1; ++s) {
    if (s < steps) load_tiles(s, s);
    __pipeline_commit();
  }

  for (int t = 0; t < steps; ++t) {
    __pipeline_wait_prior(C::STAGES - 2);  // this thread's copies of tile t have landed
    // Everyone's copies of tile t have landed, and everyone has finished
    // multiplying tile t-1, whose buffer is refilled next.
    __syncthreads();
    if (t + C::STAGES - 1 < steps) load_tiles((t + C::STAGES - 1) % C::STAGES, t + C::STAGES - 1);
    __pipeline_commit();

    const float* as = smem + (t % C::STAGES) * C::STAGE_FLOATS + a_row * C::A_STRIDE;
    const float* bs = smem + (t % C::STAGES) * C::STAGE_FLOATS + C::A_FLOATS + b_col;
#pragma unroll
    for (int p = 0; p < C::BK; p += 4) {
      // Four rows of b (k = p .. p+3), this thread's 8 columns of each.
      float bv[4][THREAD_N];
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const float4 lo = *reinterpret_cast<const float4*>(bs + (p + q) * C::BN);
        const float4 hi = *reinterpret_cast<const float4*>(bs + (p + q) * C::BN + C::WN / 2);
        bv[q][0] = lo.x, bv[q][1] = lo.y, bv[q][2] = lo.z, bv[q][3] = lo.w;
        bv[q][4] = hi.x, bv[q][5] = hi.y, bv[q][6] = hi.z, bv[q][7] = hi.w;
      }
      // Then each of the thread's 8 rows of a, four k at once, into 32 multiply-adds.
#pragma unroll
      for (int i = 0; i < THREAD_M; ++i) {
        const int r = (i / 4) * (C::WM / 2) + (i % 4) * C::WARP_Y;
        const float4 av4 = *reinterpret_cast<const float4*>(as + r * C::A_STRIDE + p);
        const float av[4] = {av4.x, av4.y, av4.z, av4.w};
#pragma unroll
        for (int q = 0; q < 4; ++q)
#pragma unroll
          for (int j = 0; j < THREAD_N; ++j) acc[i][j] += av[q] * bv[q][j];
      }
    }
  }
  __pipeline_wait_prior(0);  // nothing may be left in flight when the block ends

  // Each row's 8 values as two float4 (columns b_col and b_col + WN/2).
#pragma unroll
  for (int i = 0; i < THREAD_M; ++i) {
    const int row = row0 + a_row + (i / 4) * (C::WM / 2) + (i % 4) * C::WARP_Y;
    if (row >= m) continue;
    float* crow = c + static_cast<size_t>(row) * n;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int col = col0 + b_col + h * (C::WN / 2);
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

// ---- rows that are not 16-byte aligned --------------------------------------------------------
//
// When k or n is not a multiple of 4 (or a pointer is not 16-byte aligned),
// a row's 4 floats may straddle the matrix's edge and 16-byte copies are not
// allowed. There the tiles travel through registers instead, each float
// loaded with its own bounds check, and are written to the shared tiles after
// the arithmetic of the step before (register double buffering), with a
// transposed into the k-major layout on the way. Measured on an H200 at
// 4097 x 4095 x 4093: 0.82x cuBLAS, against 0.59-0.67x for the cp.async kernel
// above with 4-byte copies (every element a copy instruction of its own).
namespace staged {

constexpr int BLOCK_K = 16;  // depth of the a and b tiles per step

template <int BM, int BN> struct Tile {
  static constexpr int THREADS_X = BN / THREAD_N;
  static constexpr int THREADS = (BM / THREAD_M) * THREADS_X;
  // Resident blocks per SM the compiler must allow (512 threads: 128 registers each).
  static constexpr int MIN_BLOCKS = 512 / THREADS;
  // float4 loads per thread per step (a tile: BM x BLOCK_K, b tile: BLOCK_K x BN).
  static constexpr int A_VECS = BM * BLOCK_K / 4 / THREADS;
  static constexpr int B_VECS = BLOCK_K * BN / 4 / THREADS;
  static_assert(A_VECS * THREADS * 4 == BM * BLOCK_K && B_VECS * THREADS * 4 == BLOCK_K * BN,
                "the tiles must split evenly into 16-byte loads");
};

// Thread `tid`'s e-th float4 of the a tile: row r, columns p .. p+3 of the tile.
template <int BM, int BN>
__device__ __forceinline__ float4 load_a(const float* __restrict__ a, int m, int k, int row0, int k0, int tid, int e) {
  constexpr int THREADS = Tile<BM, BN>::THREADS;
  const int idx = tid + e * THREADS;
  const int r = idx / (BLOCK_K / 4), p = (idx % (BLOCK_K / 4)) * 4;
  const int gr = row0 + r, gk = k0 + p;
  float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
  if (gr < m) {
    const float* src = a + static_cast<size_t>(gr) * k + gk;
    if (gk < k) v.x = src[0];
    if (gk + 1 < k) v.y = src[1];
    if (gk + 2 < k) v.z = src[2];
    if (gk + 3 < k) v.w = src[3];
  }
  return v;
}

// Thread `tid`'s e-th float4 of the b tile: row p, columns cc .. cc+3 of the tile.
template <int BM, int BN>
__device__ __forceinline__ float4 load_b(const float* __restrict__ b, int n, int k, int col0, int k0, int tid, int e) {
  constexpr int THREADS = Tile<BM, BN>::THREADS;
  const int idx = tid + e * THREADS;
  const int p = idx / (BN / 4), cc = (idx % (BN / 4)) * 4;
  const int gk = k0 + p, gc = col0 + cc;
  float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
  if (gk < k) {
    const float* src = b + static_cast<size_t>(gk) * n + gc;
    if (gc < n) v.x = src[0];
    if (gc + 1 < n) v.y = src[1];
    if (gc + 2 < n) v.z = src[2];
    if (gc + 3 < n) v.w = src[3];
  }
  return v;
}

template <int BM, int BN>
__global__ void __launch_bounds__(Tile<BM, BN>::THREADS, Tile<BM, BN>::MIN_BLOCKS)
    matmul_register_tiled(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n,
                          int k) {
  using T = Tile<BM, BN>;
  constexpr int THREADS_X = T::THREADS_X;
  constexpr int HALF_M = BM / 2, HALF_N = BN / 2;
  // Two copies of each tile; a is stored transposed: as[buffer][p][row].
  __shared__ __align__(16) float as[2][BLOCK_K][BM];
  __shared__ __align__(16) float bs[2][BLOCK_K][BN];

  const int tid = threadIdx.x;
  const int tx = tid % THREADS_X, ty = tid / THREADS_X;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

  float4 a_next[T::A_VECS], b_next[T::B_VECS];
  auto fetch = [&](int k0) {
#pragma unroll
    for (int e = 0; e < T::A_VECS; ++e) a_next[e] = load_a<BM, BN>(a, m, k, row0, k0, tid, e);
#pragma unroll
    for (int e = 0; e < T::B_VECS; ++e) b_next[e] = load_b<BM, BN>(b, n, k, col0, k0, tid, e);
  };
  auto stash = [&](int buf) {
#pragma unroll
    for (int e = 0; e < T::A_VECS; ++e) {
      const int idx = tid + e * T::THREADS;
      const int r = idx / (BLOCK_K / 4), p = (idx % (BLOCK_K / 4)) * 4;
      as[buf][p][r] = a_next[e].x;
      as[buf][p + 1][r] = a_next[e].y;
      as[buf][p + 2][r] = a_next[e].z;
      as[buf][p + 3][r] = a_next[e].w;
    }
#pragma unroll
    for (int e = 0; e < T::B_VECS; ++e) {
      const int idx = tid + e * T::THREADS;
      const int p = idx / (BN / 4), cc = (idx % (BN / 4)) * 4;
      *reinterpret_cast<float4*>(&bs[buf][p][cc]) = b_next[e];
    }
  };

  float acc[THREAD_M][THREAD_N];
#pragma unroll
  for (int i = 0; i < THREAD_M; ++i)
#pragma unroll
    for (int j = 0; j < THREAD_N; ++j) acc[i][j] = 0.0f;

  const int steps = (k + BLOCK_K - 1) / BLOCK_K;
  fetch(0);
  stash(0);
  __syncthreads();
  for (int s = 0; s < steps; ++s) {
    const int cur = s & 1;
    if (s + 1 < steps) fetch((s + 1) * BLOCK_K);  // in flight during the arithmetic below

#pragma unroll
    for (int p = 0; p < BLOCK_K; ++p) {
      const float4 a0 = *reinterpret_cast<const float4*>(&as[cur][p][ty * 4]);
      const float4 a1 = *reinterpret_cast<const float4*>(&as[cur][p][ty * 4 + HALF_M]);
      const float4 b0 = *reinterpret_cast<const float4*>(&bs[cur][p][tx * 4]);
      const float4 b1 = *reinterpret_cast<const float4*>(&bs[cur][p][tx * 4 + HALF_N]);
      const float av[THREAD_M] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
      const float bv[THREAD_N] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
      for (int i = 0; i < THREAD_M; ++i)
#pragma unroll
        for (int j = 0; j < THREAD_N; ++j) acc[i][j] += av[i] * bv[j];
    }

    // The other copy was last read in step s-1, which every thread finished
    // before the barrier that ended it: safe to overwrite now.
    if (s + 1 < steps) stash(cur ^ 1);
    __syncthreads();
  }

  // Rows ty*4 + i and HALF_M + ty*4 + i, columns tx*4 + j and HALF_N + tx*4 + j.
#pragma unroll
  for (int i = 0; i < THREAD_M; ++i) {
    const int row = row0 + (i < 4 ? ty * 4 + i : HALF_M + ty * 4 + i - 4);
    if (row >= m) continue;
    float* crow = c + static_cast<size_t>(row) * n;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int col = col0 + h * HALF_N + tx * 4;
      const float* v = &acc[i][h * 4];
#pragma unroll
      for (int j = 0; j < 4; ++j)
        if (col + j < n) crow[col + j] = v[j];
    }
  }
}

template <int BM, int BN> void launch(const float* a, const float* b, float* c, int m, int n, int k) {
  const dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
  matmul_register_tiled<BM, BN><<<grid, Tile<BM, BN>::THREADS>>>(a, b, c, m, n, k);
}

}  // namespace staged

template <class C, bool VEC> void launch_config(const float* a, const float* b, float* c, int m, int n, int k) {
  static bool shared_limit_raised = false;  // above 48 KB a kernel must ask for its shared memory
  if (!shared_limit_raised) {
    cudaFuncSetAttribute(sgemm_tiled<C, VEC>, cudaFuncAttributeMaxDynamicSharedMemorySize, C::SHARED_BYTES);
    shared_limit_raised = true;
  }
  const dim3 grid((n + C::BN - 1) / C::BN, (m + C::BM - 1) / C::BM);
  sgemm_tiled<C, VEC><<<grid, C::THREADS, C::SHARED_BYTES>>>(a, b, c, m, n, k);
}

// 16-byte copies need every row of a and b to start on a 16-byte boundary.
inline bool rows_aligned(const float* a, const float* b, const float* c, int n, int k) {
  return k % 4 == 0 && n % 4 == 0 && reinterpret_cast<uintptr_t>(a) % 16 == 0 &&
         reinterpret_cast<uintptr_t>(b) % 16 == 0 && reinterpret_cast<uintptr_t>(c) % 16 == 0;
}

// Any Config, aligned rows or not (the reference tuning programs of
// bench/references time other shapes through it).
template <class C> void launch_any(const float* a, const float* b, float* c, int m, int n, int k) {
  if (rows_aligned(a, b, c, n, k)) launch_config<C, true>(a, b, c, m, n, k);
  else launch_config<C, false>(a, b, c, m, n, k);
}

int sm_count() {
  static int count = 0;
  if (count == 0) {
    int device = 0;
    cudaGetDevice(&device);
    if (cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || count < 1) count = 1;
  }
  return count;
}

}  // namespace

void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
  if (m <= 0 || n <= 0) return;
  if (rows_aligned(a, b, c, n, k)) {
    launch_config<Tiles, true>(a, b, c, m, n, k);
  } else {
    // Fewer 128 x 128 tiles than twice the SMs: 64 x 64 tiles, to give every SM work.
    const long long big_tiles = static_cast<long long>((m + 127) / 128) * ((n + 127) / 128);
    if (big_tiles >= 2LL * sm_count()) staged::launch<128, 128>(a, b, c, m, n, k);
    else staged::launch<64, 64>(a, b, c, m, n, k);
  }
}
