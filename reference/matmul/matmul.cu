// Reference solution of the matmul lab (hidden from students): c = a * b for
// row-major float matrices of any size, a (m x k), b (k x n), c (m x n), in
// plain fp32 on the CUDA cores (no tensor cores).
//
// It is the course's tiled kernel -- tiles of a and b staged in shared memory,
// zeros loaded for tile elements outside the matrices, a barrier between
// loading a tile and using it -- pushed to where arithmetic, not memory, is the
// limit:
//   * Register blocking: a block computes a BLOCK_M x BLOCK_N (128 x 128) tile
//     of c, each of its 256 threads an 8 x 8 patch held in 64 registers. Per
//     step along k a thread reads 8 values of a and 8 of b from shared memory
//     and does 64 multiply-adds with them (outer product), so shared-memory
//     traffic is an eighth of the arithmetic.
//   * The a tile is stored transposed in shared memory (k-major), so the 8
//     values of a a thread needs at one k are contiguous, like those of b:
//     each thread reads them as two 16-byte vectors (float4), and within a
//     warp these reads are broadcasts or consecutive (no bank conflicts).
//     A thread's 8 rows are two groups of 4 rows half a tile apart (likewise
//     its columns), which keeps those vector reads conflict-free.
//   * Double buffering: two copies of each shared tile. While the block
//     multiplies the tiles of step t, every thread already loads its share of
//     step t+1 from global memory into registers, and writes it to the other
//     copy afterwards: the global-memory latency hides behind arithmetic and
//     one barrier per step suffices.
//   * 16-byte global loads and stores when rows are 16-byte aligned (k and n
//     multiples of 4, aligned pointers); element-wise loads with bounds checks
//     otherwise, so ragged shapes stay correct.
// Small products (fewer 128 x 128 tiles than twice the SMs) use 64 x 64 tiles
// of 64 threads instead, to give every SM work. Tunables are the constants.
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int BLOCK_K = 16;  // depth of the a and b tiles per step
constexpr int THREAD_M = 8;  // rows of c per thread
constexpr int THREAD_N = 8;  // columns of c per thread

template <int BM, int BN>
struct Tile {
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
template <int BM, int BN, bool VEC>
__device__ __forceinline__ float4 load_a(const float* __restrict__ a, int m, int k, int row0, int k0, int tid, int e) {
  constexpr int THREADS = Tile<BM, BN>::THREADS;
  const int idx = tid + e * THREADS;
  const int r = idx / (BLOCK_K / 4), p = (idx % (BLOCK_K / 4)) * 4;
  const int gr = row0 + r, gk = k0 + p;
  float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
  if (gr < m) {
    const float* src = a + static_cast<size_t>(gr) * k + gk;
    if (VEC) {
      if (gk < k) v = *reinterpret_cast<const float4*>(src);  // k % 4 == 0: all four or none
    } else {
      if (gk < k) v.x = src[0];
      if (gk + 1 < k) v.y = src[1];
      if (gk + 2 < k) v.z = src[2];
      if (gk + 3 < k) v.w = src[3];
    }
  }
  return v;
}

// Thread `tid`'s e-th float4 of the b tile: row p, columns cc .. cc+3 of the tile.
template <int BM, int BN, bool VEC>
__device__ __forceinline__ float4 load_b(const float* __restrict__ b, int n, int k, int col0, int k0, int tid, int e) {
  constexpr int THREADS = Tile<BM, BN>::THREADS;
  const int idx = tid + e * THREADS;
  const int p = idx / (BN / 4), cc = (idx % (BN / 4)) * 4;
  const int gk = k0 + p, gc = col0 + cc;
  float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
  if (gk < k) {
    const float* src = b + static_cast<size_t>(gk) * n + gc;
    if (VEC) {
      if (gc < n) v = *reinterpret_cast<const float4*>(src);  // n % 4 == 0: all four or none
    } else {
      if (gc < n) v.x = src[0];
      if (gc + 1 < n) v.y = src[1];
      if (gc + 2 < n) v.z = src[2];
      if (gc + 3 < n) v.w = src[3];
    }
  }
  return v;
}

template <int BM, int BN, bool VEC>
__global__ void __launch_bounds__(Tile<BM, BN>::THREADS, Tile<BM, BN>::MIN_BLOCKS)
matmul_register_tiled(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                      int m, int n, int k) {
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
    for (int e = 0; e < T::A_VECS; ++e) a_next[e] = load_a<BM, BN, VEC>(a, m, k, row0, k0, tid, e);
#pragma unroll
    for (int e = 0; e < T::B_VECS; ++e) b_next[e] = load_b<BM, BN, VEC>(b, n, k, col0, k0, tid, e);
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

template <int BM, int BN>
void launch(const float* a, const float* b, float* c, int m, int n, int k, bool vec) {
  const dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
  if (vec) matmul_register_tiled<BM, BN, true><<<grid, Tile<BM, BN>::THREADS>>>(a, b, c, m, n, k);
  else matmul_register_tiled<BM, BN, false><<<grid, Tile<BM, BN>::THREADS>>>(a, b, c, m, n, k);
}

}  // namespace

void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
  if (m <= 0 || n <= 0) return;
  static int sm_count = 0;
  if (sm_count == 0) {
    int device = 0;
    cudaGetDevice(&device);
    if (cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || sm_count < 1) {
      sm_count = 1;
    }
  }
  // 16-byte accesses need every row of a, b and c to start on a 16-byte boundary.
  const bool vec = k % 4 == 0 && n % 4 == 0 && reinterpret_cast<uintptr_t>(a) % 16 == 0 &&
                   reinterpret_cast<uintptr_t>(b) % 16 == 0 && reinterpret_cast<uintptr_t>(c) % 16 == 0;
  const long long big_tiles = static_cast<long long>((m + 127) / 128) * ((n + 127) / 128);
  if (big_tiles >= 2LL * sm_count) launch<128, 128>(a, b, c, m, n, k, vec);
  else launch<64, 64>(a, b, c, m, n, k, vec);
}
