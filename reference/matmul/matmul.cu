// Reference solution of the matmul lab (hidden from students): c = a * b for
// row-major float matrices of any size, a (m x k), b (k x n), c (m x n), in
// plain fp32 on the CUDA cores (no tensor cores).
//
// It is the course's tiled kernel (README "Step 2: the tiled kernel": tiles of
// a and b staged in shared memory, zeros for tile elements outside the
// matrices, a barrier between loading a tile and using it) pushed to where the
// multiply-add units, not memory, are the limit. Each technique and why:
//   * Register blocking (README "Going further"): a block of 256 threads
//     computes a 128 x 256 tile of c, each thread a 16 x 8 patch held in 128
//     registers (one block per SM). Each k step a thread reads 16 values of a
//     and 8 of b from shared memory (six 16-byte loads) and performs 128
//     multiply-adds with them. Grids of fewer such tiles than 7/8 of the SMs
//     take 128 x 128 tiles of 8 x 8 per thread at two blocks per SM
//     (__launch_bounds__(256, 2): at most 128 registers per thread), or
//     64 x 64 tiles of 64 threads where even those would leave SMs idle.
//   * a stored transposed in the shared tile (as[p][row]): the values of a a
//     thread needs at step p are then runs of 4 consecutive floats, read as
//     16-byte loads, like the values of b. Each row of the transposed tile is
//     padded by 4 floats, so that the scattered stores of the transposition
//     land in different banks (README "Shared-memory banks").
//   * Warp tiling: the 32 threads of a warp are 4 x 8 (a 64 x 64 patch of c
//     at 16 x 8 per thread, 32 x 64 at 8 x 8), so one 16-byte load of the warp
//     reads only 4 different addresses of the a tile (broadcasts) and 8
//     consecutive ones of the b tile: no bank conflicts.
//   * Fragments double-buffered in registers: the loads of step p+1 are issued
//     before the multiply-adds of step p, which hide their latency.
//   * The order of the multiply-adds (beyond the README): run by run of 4
//     rows, column by column, so that each value of b feeds 4 multiply-adds in
//     a row. The compiler keeps the source's order, and this one ran 1.5-2%
//     faster than row by row (the hardware can reuse an operand of the
//     previous instruction instead of reading it again from the register file).
//   * Tiles in flight while the block computes, so that the latency of global
//     memory hides behind arithmetic, and one barrier per tile suffices
//     (README "Why two barriers": the barrier that says tile t has landed also
//     says that everyone has finished with the buffer refilled next):
//     asynchronous copies (cp.async through cuda_pipeline.h), four tiles deep
//     (three for 128 x 128), straight from global to shared memory: b in
//     16-byte groups, a element by element into its transposed place.
//   * Rows of b that do not start on 16-byte boundaries (n not a multiple of
//     4; README "Any size" teaches the bounds, the padding is beyond it): a
//     16-byte copy would straddle two rows, so b is first copied into a buffer
//     with rows padded to a multiple of 4 floats (one pass over b, about 1% of
//     the time at 4097 x 4095 x 4093), and the kernel reads that. Only if the
//     device has no room for the buffer are b's elements copied one by one
//     (4-byte cp.async: about 2% slower). c is written with 16-byte stores
//     where its rows are aligned, element by element where not.
//   * Blocks in bands: consecutive blocks walk down bands of 8 tile rows
//     rather than along whole rows of tiles, so that the blocks running at one
//     time reuse each other's rows of a and columns of b from the L2 cache.
//   * Tails that cost nothing inside the matrices: a block whose tile lies
//     wholly inside copies without bounds tests; only edge blocks and the last
//     step of a k that is not a multiple of 16 test each element and write
//     zeros outside (a zero adds nothing, README "Any size"); the stores of c
//     are guarded.
// Measured on an H200 (docs/performance.md): 0.95x cuBLAS (pedantic FP32) at
// 2048^3 and 4096^3, 0.96x at 8192^3, 0.95x at 4097 x 4095 x 4093 (128 x 256
// tiles with the multiply-adds row by row: 0.93-0.94x, ragged 0.90x with
// register-staged copies). What is left is mostly the last wave: 4096^2
// outputs are 512 tiles, 3.9 per SM, so 16 of the 132 SMs get 3 tiles and idle
// for the last quarter of the run (3% of the device's time).
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace {

// BM x BN block tile, BK deep; warps of WM x WN, TM x TN outputs per thread
// (as TM / 4 runs of 4 rows spaced WM / RA apart and TN / 4 runs of 4 columns
// spaced WN / RB apart); STAGES tiles in the cp.async ring; MIN_BLOCKS resident
// blocks per SM the register budget must allow.
template <int BM_, int BN_, int BK_, int WM_, int WN_, int STAGES_, int MIN_BLOCKS_, int TM_ = 8, int TN_ = 8>
struct Config {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, STAGES = STAGES_;
  static constexpr int MIN_BLOCKS = MIN_BLOCKS_, TM = TM_, TN = TN_;
  static constexpr int RA = TM / 4, RB = TN / 4;            // runs of 4 rows, of 4 columns
  static constexpr int WARP_Y = WM / TM, WARP_X = WN / TN;  // threads of a warp, down and across
  static_assert(WARP_Y * WARP_X == 32 && RA * 4 == TM && RB * 4 == TN, "a warp tile must hold 32 threads' patches");
  static constexpr int WARPS_X = BN / WN;
  static constexpr int THREADS = 32 * (BM / WM) * WARPS_X;
  static constexpr int A_LD = BM + 4;  // floats per row (one k) of the transposed a tile
  static constexpr int A_FLOATS = BK * A_LD, STAGE_FLOATS = A_FLOATS + BK * BN;
  static constexpr int SHARED_BYTES = STAGES * STAGE_FLOATS * static_cast<int>(sizeof(float));
  // Elements (and 16-byte groups of b) each thread copies per tile.
  static constexpr int A_ELEMS = BM * BK / THREADS, B_ELEMS = BK * BN / THREADS, B_GROUPS = B_ELEMS / 4;
  static_assert(A_ELEMS * THREADS == BM * BK && B_GROUPS * 4 * THREADS == BK * BN, "tiles must split evenly");
  static_assert(THREADS % BK == 0 && THREADS % BN == 0 && THREADS % (BN / 4) == 0, "copies must tile whole rows");
  static_assert(STAGES >= 2, "at least two buffers");
};

// 128 x 256 tiles, 16 x 8 per thread (warps of 64 x 64), one block per SM:
// 6 shared loads per 128 multiply-adds instead of 4 per 64.
using Wide = Config<128, 256, 16, 64, 64, 4, 1, 16, 8>;
using Tiles = Config<128, 128, 16, 32, 64, 3, 2>;
// Grids of fewer 128 x 128 tiles than SMs (1024^3 and below) leave SMs idle:
// 64 x 64 tiles of 2 warps there (at 512^3: 0.62x cuBLAS against 0.39x).
using SmallTiles = Config<64, 64, 16, 32, 64, 3, 8>;

// What this thread copies of each tile: a, rows a_r + e * A_STEP, column a_p
// (element by element: consecutive threads along a row, coalesced); b, rows
// b_r + e * B_STEP, columns from b_q (GROUPS: 16-byte groups, else elements);
// where those elements start in the matrices and in a stage's shared tiles,
// and how much of the matrices lies ahead of them (the tails' bounds tests).
template <class C, bool GROUPS> struct Copies {
  static constexpr int A_STEP = C::THREADS / C::BK;
  static constexpr int B_STEP = GROUPS ? C::THREADS / (C::BN / 4) : C::THREADS / C::BN;
  static constexpr int B_N = GROUPS ? C::B_GROUPS : C::B_ELEMS;
  int a_r, a_p, b_r, b_q;
  const float* a_src;  // this thread's first element of the first a tile (+ BK per tile)
  const float* b_src;  // and of the first b tile (+ BK rows per tile)
  size_t a_step, b_step;  // from one of its elements of a tile to the next
  int a_rows_left, a_cols_left, b_rows_left, b_cols_left;
  int a_dst, b_dst;  // its first places in a stage's a and b tiles
  int steps;         // tiles along k
  int inside_steps;  // those wholly inside both matrices: no bounds tests
  __device__ __forceinline__ Copies(int tid, const float* a, const float* b, int ldb, int m, int n, int k, int row0,
                                    int col0)
      : a_r(tid / C::BK),
        a_p(tid % C::BK),
        b_r(GROUPS ? tid / (C::BN / 4) : tid / C::BN),
        b_q(GROUPS ? (tid % (C::BN / 4)) * 4 : tid % C::BN),
        a_src(a + static_cast<size_t>(row0 + a_r) * k + a_p),
        b_src(b + static_cast<size_t>(b_r) * ldb + col0 + b_q),
        a_step(static_cast<size_t>(A_STEP) * k),
        b_step(static_cast<size_t>(B_STEP) * ldb),
        a_rows_left(m - row0 - a_r),
        a_cols_left(k - a_p),
        b_rows_left(k - b_r),
        b_cols_left(n - col0 - b_q),
        a_dst(a_p * C::A_LD + a_r),
        b_dst(C::A_FLOATS + b_r * C::BN + b_q),
        steps((k + C::BK - 1) / C::BK),
        inside_steps(row0 + C::BM <= m && col0 + C::BN <= n ? k / C::BK : 0) {}
};

// One tile: acc += (a tile, rows at `as`) x (b tile, columns at `bs`), BK
// steps of TM + TN values and TM x TN multiply-adds, the next step's values
// loaded before this step's arithmetic. The thread's rows are the runs
// as[r * WM/RA .. r * WM/RA + 3] of each k row, its columns bs[r * WN/RB ..].
template <class C>
__device__ __forceinline__ void multiply_tile(float (&acc)[C::TM][C::TN], const float* as, const float* bs) {
  float av[2][C::TM], bv[2][C::TN];
  auto load = [&](int buf, int p) {
#pragma unroll
    for (int r = 0; r < C::RA; ++r) {
      const float4 v = *reinterpret_cast<const float4*>(as + p * C::A_LD + r * (C::WM / C::RA));
      av[buf][4 * r] = v.x, av[buf][4 * r + 1] = v.y, av[buf][4 * r + 2] = v.z, av[buf][4 * r + 3] = v.w;
    }
#pragma unroll
    for (int r = 0; r < C::RB; ++r) {
      const float4 v = *reinterpret_cast<const float4*>(bs + p * C::BN + r * (C::WN / C::RB));
      bv[buf][4 * r] = v.x, bv[buf][4 * r + 1] = v.y, bv[buf][4 * r + 2] = v.z, bv[buf][4 * r + 3] = v.w;
    }
  };
  load(0, 0);
#pragma unroll
  for (int p = 0; p < C::BK; ++p) {
    if (p + 1 < C::BK) load((p + 1) % 2, p + 1);
    // Run by run of 4 rows, column by column, the run's 4 rows: each value of
    // b serves 4 multiply-adds in a row (measured: 0.947-0.960x cuBLAS against
    // 0.929-0.942x row by row, docs/performance.md).
#pragma unroll
    for (int r = 0; r < C::RA; ++r)
#pragma unroll
      for (int j = 0; j < C::TN; ++j)
#pragma unroll
        for (int i = 4 * r; i < 4 * r + 4; ++i) acc[i][j] += av[p % 2][i] * bv[p % 2][j];
  }
}

// Writes the thread's patch: the runs of rows row + r * WM/RA + {0..3} and of
// columns col + r * WN/RB + {0..3}, as float4 when vec (n a multiple of 4, c
// aligned).
template <class C>
__device__ __forceinline__ void store_c(const float (&acc)[C::TM][C::TN], float* c, int m, int n, int row, int col,
                                        bool vec) {
#pragma unroll
  for (int i = 0; i < C::TM; ++i) {
    const int r = row + (i / 4) * (C::WM / C::RA) + i % 4;
    if (r >= m) continue;
    float* crow = c + static_cast<size_t>(r) * n;
#pragma unroll
    for (int h = 0; h < C::RB; ++h) {
      const int cc = col + h * (C::WN / C::RB);
      const float* v = &acc[i][h * 4];
      if (vec) {
        if (cc < n) *reinterpret_cast<float4*>(crow + cc) = make_float4(v[0], v[1], v[2], v[3]);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j)
          if (cc + j < n) crow[cc + j] = v[j];
      }
    }
  }
}

// This thread's place in the block: the first row of its patch in the a tile
// (a_frag) and the first column in the b tile (b_frag).
template <class C> struct Place {
  int a_frag, b_frag;
  __device__ __forceinline__ explicit Place(int tid) {
    const int warp = tid / 32, lane = tid % 32;
    const int wy = warp / C::WARPS_X, wx = warp % C::WARPS_X;
    const int ty = lane / C::WARP_X, tx = lane % C::WARP_X;
    a_frag = wy * C::WM + ty * 4;
    b_frag = wx * C::WN + tx * 4;
  }
};

// The block's tile of c: consecutive blocks walk down bands of RASTER tile
// rows, column by column, so that the blocks resident at one time share rows of
// a and columns of b in the L2 cache.
constexpr int RASTER = 8;
template <class C> __device__ __forceinline__ void tile_origin(int& row0, int& col0) {
  const int tiles_x = static_cast<int>(gridDim.x), tiles_y = static_cast<int>(gridDim.y);
  const int index = static_cast<int>(blockIdx.y) * tiles_x + static_cast<int>(blockIdx.x);
  const int band = index / (RASTER * tiles_x), first = band * RASTER;
  const int rows = min(tiles_y - first, RASTER), in_band = index - band * RASTER * tiles_x;
  row0 = (first + in_band % rows) * C::BM;
  col0 = (in_band / rows) * C::BN;
}

// ---- rows 16-byte aligned: a ring of STAGES tiles filled by cp.async ---------------------------

template <class C, bool VEC>
__global__ void __launch_bounds__(C::THREADS, C::MIN_BLOCKS)
    sgemm_tiled(const float* __restrict__ a, const float* __restrict__ b, int ldb, float* __restrict__ c, int m, int n,
                int k, bool vec_c) {
  extern __shared__ float4 smem4[];  // float4: 16-byte aligned
  float* smem = reinterpret_cast<float*>(smem4);
  using CP = Copies<C, VEC>;
  constexpr int B_BYTES = VEC ? 16 : 4;
  const int tid = threadIdx.x;
  int row0, col0;
  tile_origin<C>(row0, col0);
  const Place<C> pl(tid);
  const CP cp(tid, a, b, ldb, m, n, k, row0, col0);

  float acc[C::TM][C::TN];
#pragma unroll
  for (int i = 0; i < C::TM; ++i)
#pragma unroll
    for (int j = 0; j < C::TN; ++j) acc[i][j] = 0.0f;

  // Starts copying the tiles of step kt into buffer `stage`.
  auto load_tiles = [&](int stage, int kt) {
    float* base = smem + stage * C::STAGE_FLOATS;
    const int k0 = kt * C::BK;
    const float* ap = cp.a_src + k0;
    const float* bp = cp.b_src + static_cast<size_t>(k0) * ldb;
    if (kt < cp.inside_steps) {
#pragma unroll
      for (int e = 0; e < C::A_ELEMS; ++e)
        __pipeline_memcpy_async(base + cp.a_dst + e * CP::A_STEP, ap + e * cp.a_step, 4);
#pragma unroll
      for (int e = 0; e < CP::B_N; ++e)
        __pipeline_memcpy_async(base + cp.b_dst + e * CP::B_STEP * C::BN, bp + e * cp.b_step, B_BYTES);
    } else {
#pragma unroll
      for (int e = 0; e < C::A_ELEMS; ++e) {
        float* d = base + cp.a_dst + e * CP::A_STEP;
        if (e * CP::A_STEP < cp.a_rows_left && k0 < cp.a_cols_left) __pipeline_memcpy_async(d, ap + e * cp.a_step, 4);
        else *d = 0.0f;
      }
#pragma unroll
      for (int e = 0; e < CP::B_N; ++e) {  // a group across column n: the padded copy's zeros
        float* d = base + cp.b_dst + e * CP::B_STEP * C::BN;
        if (k0 + e * CP::B_STEP < cp.b_rows_left && 0 < cp.b_cols_left)
          __pipeline_memcpy_async(d, bp + e * cp.b_step, B_BYTES);
        else if (VEC) *reinterpret_cast<float4*>(d) = make_float4(0.f, 0.f, 0.f, 0.f);
        else *d = 0.0f;
      }
    }
  };

  // Prologue: the first STAGES-1 tiles on their way (a commit per tile, even an
  // empty one, so that "tile t has landed" is always "all but the newest
  // STAGES-2 batches").
#pragma unroll
  for (int s = 0; s < C::STAGES - 1; ++s) {
    if (s < cp.steps) load_tiles(s, s);
    __pipeline_commit();
  }
  for (int t = 0; t < cp.steps; ++t) {
    __pipeline_wait_prior(C::STAGES - 2);  // this thread's copies of tile t have landed
    // Everyone's copies of tile t have landed, and everyone has finished
    // multiplying tile t-1, whose buffer is refilled next.
    __syncthreads();
    if (t + C::STAGES - 1 < cp.steps) load_tiles((t + C::STAGES - 1) % C::STAGES, t + C::STAGES - 1);
    __pipeline_commit();
    const float* cur = smem + (t % C::STAGES) * C::STAGE_FLOATS;
    multiply_tile<C>(acc, cur + pl.a_frag, cur + C::A_FLOATS + pl.b_frag);
  }
  __pipeline_wait_prior(0);  // nothing may be left in flight when the block ends
  store_c<C>(acc, c, m, n, row0 + pl.a_frag, col0 + pl.b_frag, vec_c);
}

// ---- rows that are not 16-byte aligned: b copied into padded rows first --------------------------

// b (k x n, rows n floats apart) into rows of ldb floats (a multiple of 4, so
// every row starts on a 16-byte boundary), zeros after column n: one 16-byte
// group of the padded copy per thread, blockIdx.y walking the rows.
__global__ void pad_rows(const float* __restrict__ b, float* __restrict__ padded, int k, int n, int ldb) {
  const int c = 4 * (blockIdx.x * blockDim.x + threadIdx.x);
  if (c >= ldb) return;
  for (int r = blockIdx.y; r < k; r += gridDim.y) {
    const float* src = b + static_cast<size_t>(r) * n + c;
    float v[4];
#pragma unroll
    for (int e = 0; e < 4; ++e) v[e] = c + e < n ? src[e] : 0.0f;
    *reinterpret_cast<float4*>(padded + static_cast<size_t>(r) * ldb + c) = make_float4(v[0], v[1], v[2], v[3]);
  }
}

// The padded copy of b, in a buffer kept from call to call (grown when a
// larger one is needed); nullptr when the device has no room for it.
const float* padded_b(const float* b, int k, int n, int ldb) {
  static float* buffer = nullptr;
  static size_t capacity = 0;  // floats
  const size_t need = static_cast<size_t>(k) * ldb;
  if (need > capacity) {
    if (buffer) cudaFree(buffer);
    buffer = nullptr, capacity = 0;
    if (cudaMalloc(&buffer, need * sizeof(float)) != cudaSuccess) {
      cudaGetLastError();  // not sticky: clear it, the caller copies element by element instead
      buffer = nullptr;
      return nullptr;
    }
    capacity = need;
  }
  constexpr int threads = 256;
  const dim3 grid((ldb / 4 + threads - 1) / threads, k < 4096 ? k : 4096);
  pad_rows<<<grid, threads>>>(b, buffer, k, n, ldb);
  return buffer;
}

// Above 48 KB a kernel must ask for its shared memory, once.
template <class C, bool VEC>
void launch_tiled(const float* a, const float* b, int ldb, float* c, int m, int n, int k, bool vec_c) {
  static bool raised = false;
  if (!raised) {
    cudaFuncSetAttribute(sgemm_tiled<C, VEC>, cudaFuncAttributeMaxDynamicSharedMemorySize, C::SHARED_BYTES);
    raised = true;
  }
  const dim3 grid((n + C::BN - 1) / C::BN, (m + C::BM - 1) / C::BM);
  sgemm_tiled<C, VEC><<<grid, C::THREADS, C::SHARED_BYTES>>>(a, b, ldb, c, m, n, k, vec_c);
}

// Any Config, aligned rows or not (bench/references/matmul_variants.cu times
// other shapes through it). b's rows go to the kernel as 16-byte groups when
// they start on 16-byte boundaries, else through a padded copy, else (no room
// for the copy) element by element; c's as 16-byte stores when its rows are
// aligned (a is always copied element by element).
template <class C> void launch_any(const float* a, const float* b, float* c, int m, int n, int k) {
  const bool vec_c = n % 4 == 0 && reinterpret_cast<uintptr_t>(c) % 16 == 0;
  if (k <= 0 || (n % 4 == 0 && reinterpret_cast<uintptr_t>(b) % 16 == 0))
    return launch_tiled<C, true>(a, b, n, c, m, n, k, vec_c);
  const int ldb = (n + 3) / 4 * 4;
  if (const float* padded = padded_b(b, k, n, ldb)) return launch_tiled<C, true>(a, padded, ldb, c, m, n, k, vec_c);
  launch_tiled<C, false>(a, b, n, c, m, n, k, vec_c);
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

template <class C> long long tile_count(int m, int n) {
  return static_cast<long long>((m + C::BM - 1) / C::BM) * ((n + C::BN - 1) / C::BN);
}

}  // namespace

void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
  if (m <= 0 || n <= 0) return;
  const int sms = sm_count();
  if (tile_count<Wide>(m, n) * 8 >= 7LL * sms) launch_any<Wide>(a, b, c, m, n, k);
  else if (tile_count<Tiles>(m, n) >= sms) launch_any<Tiles>(a, b, c, m, n, k);
  else launch_any<SmallTiles>(a, b, c, m, n, k);
}
