// Skeleton of the matmul lab: fill in the TODOs to compute c = a * b on the GPU.
// Read assignments/matmul/README.md first; it explains every step below.
//
//   a is m x k, b is k x n, c is m x n, all row-major float matrices:
//   element (row, col) of a matrix with `cols` columns is at [row * cols + col].
//
//   c[row][col] = sum over p = 0 .. k-1 of a[row][p] * b[p][col]
//
// The three pointers are DEVICE pointers: the harness has already copied a and
// b to the GPU and allocated c (filled with NaN, so any element you forget to
// write fails the tests). You write the kernels and the host function that
// launches them; no cudaMalloc or cudaMemcpy is needed.
//
// Test:   gpulab test matmul skeletons/matmul/matmul.cu
// Score:  gpulab grade matmul skeletons/matmul/matmul.cu
//
// As given, the kernels do nothing: the program runs, every test fails because
// c is never written.

// Width (and height) of a tile, and of a thread block: 16 x 16 = 256 threads.
// Try 32 as well (32 x 32 = 1024 threads, the most one block may have).
#define TILE_WIDTH 16

// Step 1 uses matmul_basic, step 2 matmul_tiled: set this to true once you
// start step 2.
constexpr bool USE_TILED_KERNEL = false;

// ---------------------------------------------------------------------------
// Step 1: the basic kernel. One thread computes one element of c.
//
// The grid is 2-D: x runs along the columns of c, y along its rows, so that
// neighbouring threads of a warp (consecutive threadIdx.x) compute neighbouring
// elements of one row of c and read neighbouring elements of b.
// ---------------------------------------------------------------------------
__global__ void matmul_basic(const float* a, const float* b, float* c, int m, int n, int k) {
  // TODO 1a: compute this thread's row and column of c from blockIdx, blockDim
  //          and threadIdx (y gives the row, x the column).

  // TODO 1b: the grid is rounded up to whole blocks, so some threads lie
  //          outside c (row >= m or col >= n). They must not read or write
  //          anything: only continue if row < m and col < n.

  // TODO 1c: walk p from 0 to k-1, accumulating a[row][p] * b[p][col] in a
  //          local float (a register), then write the sum to c[row][col].
  //          Each step reads two floats from global memory for one
  //          multiply-add: the README explains why that is the bottleneck.
}

// ---------------------------------------------------------------------------
// Step 2: the tiled kernel. Each block computes one TILE_WIDTH x TILE_WIDTH
// tile of c; each thread still computes one element of it. The block walks
// along k in phases: in each phase it copies one tile of a (its rows, TILE_WIDTH
// columns of k) and one tile of b (TILE_WIDTH rows of k, its columns) into
// shared memory, every thread loading ONE element of each, and then every
// thread does TILE_WIDTH multiply-adds from shared memory. Each element loaded
// from global memory is then used TILE_WIDTH times instead of once.
// ---------------------------------------------------------------------------
__global__ void matmul_tiled(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float a_tile[TILE_WIDTH][TILE_WIDTH];  // [row within tile][p within phase]
  __shared__ float b_tile[TILE_WIDTH][TILE_WIDTH];  // [p within phase][column within tile]

  // TODO 2a: tx = threadIdx.x, ty = threadIdx.y; this thread's element of c
  //          is row = blockIdx.y * TILE_WIDTH + ty, col = blockIdx.x * TILE_WIDTH + tx.
  //          Start a float sum at 0.
  //
  //          Do NOT return early when row >= m or col >= n: those threads
  //          must still load their share of the tiles and reach every
  //          __syncthreads() below (a barrier that some threads of the block
  //          never reach is an error; the emulator reports it).

  // TODO 2b: loop over the phases: ceil(k / TILE_WIDTH) of them, i.e.
  //          (k + TILE_WIDTH - 1) / TILE_WIDTH, so that the last, partial
  //          tile is not forgotten when k is not a multiple of TILE_WIDTH.
  //
  //   TODO 2c: load one element of each tile:
  //              a_tile[ty][tx] = a[row][phase * TILE_WIDTH + tx]
  //              b_tile[ty][tx] = b[phase * TILE_WIDTH + ty][col]
  //            but if that element lies outside a (or b), store 0.0f instead:
  //            a zero adds nothing to the sum, and reading outside the matrix
  //            either reads another row's data or crashes.
  //
  //   TODO 2d: __syncthreads(): wait until the whole block has written the
  //            tiles before anyone reads them.
  //
  //   TODO 2e: sum += a_tile[ty][p] * b_tile[p][tx] for p = 0 .. TILE_WIDTH-1.
  //
  //   TODO 2f: __syncthreads() again: wait until everyone has finished with
  //            these tiles before the next phase overwrites them.

  // TODO 2g: only threads inside c (row < m and col < n) write c[row][col].
}

// ---------------------------------------------------------------------------
// The host function the grader calls (all pointers are device pointers).
// It is complete: it covers c with TILE_WIDTH x TILE_WIDTH blocks, rounding
// the number of blocks UP so that sizes that are not multiples of TILE_WIDTH
// are covered too (the kernels check the bounds), and launches the kernel.
// ---------------------------------------------------------------------------
void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
  const dim3 block(TILE_WIDTH, TILE_WIDTH);
  const dim3 grid((n + TILE_WIDTH - 1) / TILE_WIDTH,   // x: blocks across the columns of c
                  (m + TILE_WIDTH - 1) / TILE_WIDTH);  // y: blocks down the rows of c
  if (USE_TILED_KERNEL) {
    matmul_tiled<<<grid, block>>>(a, b, c, m, n, k);
  } else {
    matmul_basic<<<grid, block>>>(a, b, c, m, n, k);
  }
}
