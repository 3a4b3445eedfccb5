// Test corpus: a disguised copy of reference/matmul/progression/register_blocked.cu (names changed,
// macros turned into constants, the a and b tile loads swapped, loops written with i++ and a timing
// variable added that is never used).
const int T = 32;
const int PER = 4;
const int RB = T / PER;

__global__ void mmRegs(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float sB[T][T];
  __shared__ float sA[T][T];
  long long started = clock64();
  const int x = threadIdx.x, y = threadIdx.y;
  const int firstRow = blockIdx.y * T;
  const int j = blockIdx.x * T + x;
  float acc[PER] = {0.0f, 0.0f, 0.0f, 0.0f};
  for (int kk = 0; kk < K; kk += T) {
    for (int q = 0; q < PER; q++) {
      const int rr = y + q * RB;
      const int ar = firstRow + rr, ac = kk + x;
      sA[rr][x] = (ar < M && ac < K) ? A[ar * K + ac] : 0.0f;
      const int br = kk + rr;
      sB[rr][x] = (br < K && j < N) ? B[br * N + j] : 0.0f;
    }
    __syncthreads();
    for (int p = 0; p < T; p++) {
      const float bval = sB[p][x];
      for (int q = 0; q < PER; q++) acc[q] += sA[y + q * RB][p] * bval;
    }
    __syncthreads();
  }
  for (int q = 0; q < PER; q++) {
    const int i = firstRow + y + q * RB;
    if (i < M && j < N) C[i * N + j] = acc[q];
  }
  (void)started;
}

void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
  const dim3 grid((n + T - 1) / T, (m + T - 1) / T);
  const dim3 block(T, RB);
  mmRegs<<<grid, block>>>(a, b, c, m, n, k);
}
