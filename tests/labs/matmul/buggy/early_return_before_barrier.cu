// BUGGY submission (must lose points). Bug: threads outside c return early,
// before the tile loop. They never load their share of the tiles (so others
// multiply with elements nobody wrote) and never reach the __syncthreads()
// that the rest of the block waits at: barrier divergence, which the
// emulator reports.

#define TILE_WIDTH 16

__global__ void matmul_tiled(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float a_tile[TILE_WIDTH][TILE_WIDTH];
  __shared__ float b_tile[TILE_WIDTH][TILE_WIDTH];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE_WIDTH + ty;
  const int col = blockIdx.x * TILE_WIDTH + tx;
  float sum = 0.0f;
  if (row >= m || col >= n) return;  // BUG: these threads skip the loads and the barriers
  for (int phase = 0; phase < (k + TILE_WIDTH - 1) / TILE_WIDTH; ++phase) {
    const int a_col = phase * TILE_WIDTH + tx;
    const int b_row = phase * TILE_WIDTH + ty;
    a_tile[ty][tx] = (row < m && a_col < k) ? a[row * k + a_col] : 0.0f;
    b_tile[ty][tx] = (b_row < k && col < n) ? b[b_row * n + col] : 0.0f;
    __syncthreads();
    for (int p = 0; p < TILE_WIDTH; ++p) sum += a_tile[ty][p] * b_tile[p][tx];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = sum;
}

void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
  const dim3 block(TILE_WIDTH, TILE_WIDTH);
  const dim3 grid((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
  matmul_tiled<<<grid, block>>>(a, b, c, m, n, k);
}
