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
// bs[p][...] hit consecutive words and the reads of as[...][p] are broadcasts:
// no shared-memory bank conflicts. The tile loads walk consecutive global
// addresses (coalesced) and consecutive shared words (conflict-free) as well.
//
// All sizes are named constants, to be tuned on the GPU.

namespace {

constexpr int BLOCK_M = 64;   // rows of c computed by one block
constexpr int BLOCK_N = 64;   // columns of c computed by one block
constexpr int BLOCK_K = 16;   // depth of the a and b tiles loaded per phase
constexpr int THREAD_M = 4;   // rows of c computed by one thread
constexpr int THREAD_N = 4;   // columns of c computed by one thread
constexpr int THREADS_X = BLOCK_N / THREAD_N;
constexpr int THREADS_Y = BLOCK_M / THREAD_M;
constexpr int THREADS = THREADS_X * THREADS_Y;

static_assert(BLOCK_N % THREAD_N == 0 && BLOCK_M % THREAD_M == 0, "the block tile must split evenly into threads");
static_assert(THREADS <= 1024, "at most 1024 threads per block");

__global__ void __launch_bounds__(THREADS)
matmul_register_tiled(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                      int m, int n, int k) {
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
    for (int e = tid; e < BLOCK_M * BLOCK_K; e += THREADS) {
      const int r = e / BLOCK_K, p = e % BLOCK_K;
      const int gr = row0 + r, gp = k0 + p;
      as[r][p] = (gr < m && gp < k) ? a[static_cast<size_t>(gr) * k + gp] : 0.0f;
    }
    for (int e = tid; e < BLOCK_K * BLOCK_N; e += THREADS) {
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

}  // namespace

void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
  if (m <= 0 || n <= 0) return;
  const dim3 block(THREADS_X, THREADS_Y);
  const dim3 grid((n + BLOCK_N - 1) / BLOCK_N, (m + BLOCK_M - 1) / BLOCK_M);
  matmul_register_tiled<<<grid, block>>>(a, b, c, m, n, k);
}
