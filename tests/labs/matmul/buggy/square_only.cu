// BUGGY submission (must lose points). Bug: assumes square matrices
// (m == n == k). Like the lecture's first kernels it uses one `width` for
// every dimension, here n, so every non-square shape reads the wrong elements
// of a and b (or past their ends) and writes c with the wrong row length.

#define TILE_WIDTH 16

__global__ void matmul_tiled(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float a_tile[TILE_WIDTH][TILE_WIDTH];
  __shared__ float b_tile[TILE_WIDTH][TILE_WIDTH];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int width = n;  // BUG: only right when m == n == k
  const int row = blockIdx.y * TILE_WIDTH + ty;
  const int col = blockIdx.x * TILE_WIDTH + tx;
  float sum = 0.0f;
  for (int phase = 0; phase < (width + TILE_WIDTH - 1) / TILE_WIDTH; ++phase) {
    const int a_col = phase * TILE_WIDTH + tx;
    const int b_row = phase * TILE_WIDTH + ty;
    a_tile[ty][tx] = (row < width && a_col < width) ? a[row * width + a_col] : 0.0f;
    b_tile[ty][tx] = (b_row < width && col < width) ? b[b_row * width + col] : 0.0f;
    __syncthreads();
    for (int p = 0; p < TILE_WIDTH; ++p) sum += a_tile[ty][p] * b_tile[p][tx];
    __syncthreads();
  }
  if (row < width && col < width) c[row * width + col] = sum;
}

void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
  const dim3 block(TILE_WIDTH, TILE_WIDTH);
  const dim3 grid((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
  matmul_tiled<<<grid, block>>>(a, b, c, m, n, k);
}
