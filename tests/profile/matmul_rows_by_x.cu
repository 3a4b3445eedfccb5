// A correct matmul submission with the classic coalescing mistake: threadIdx.x
// picks the row of c, so the 32 lanes of a warp read a[row * k + p] from 32
// different rows (k floats apart) and write c down a column. It scores full
// correctness marks; `gpulab test matmul FILE --profile` must name both lines.

constexpr int BLOCK = 16;

__global__ void matmul_rows_by_x(const float* a, const float* b, float* c, int m, int n, int k) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < m && col < n) {
    float sum = 0.0f;
    for (int p = 0; p < k; ++p) sum += a[row * k + p] * b[p * n + col];
    c[row * n + col] = sum;
  }
}

void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
  const dim3 block(BLOCK, BLOCK);
  const dim3 grid((m + BLOCK - 1) / BLOCK, (n + BLOCK - 1) / BLOCK);
  matmul_rows_by_x<<<grid, block>>>(a, b, c, m, n, k);
}
