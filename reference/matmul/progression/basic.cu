// Course progression step, timed by `gpulab bench matmul --variants` (it must score
// full marks): the basic, untiled kernel of the
// course. One thread per element of c reads a row of a and a column of b
// straight from global memory; 16 x 16 blocks, the grid rounded up, and
// threads outside c do nothing. Slow on a GPU but correct.

constexpr int BLOCK = 16;

__global__ void matmul_basic(const float* a, const float* b, float* c, int m, int n, int k) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m && col < n) {
    float sum = 0.0f;
    for (int p = 0; p < k; ++p) sum += a[row * k + p] * b[p * n + col];
    c[row * n + col] = sum;
  }
}

void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
  const dim3 block(BLOCK, BLOCK);
  const dim3 grid((n + BLOCK - 1) / BLOCK, (m + BLOCK - 1) / BLOCK);
  matmul_basic<<<grid, block>>>(a, b, c, m, n, k);
}
