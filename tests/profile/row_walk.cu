// The two mistakes the profiler must point at, in one program: a matmul whose
// threadIdx.x walks the rows of A (each lane reads an element n floats after
// its neighbour's: uncoalesced), and a 32x32 shared tile read down its columns
// without padding (a 32-way bank conflict). Used by the `gpulab run --profile` test.
#include <cstdio>
#include <vector>

__global__ void matmul_rows_by_x(const float* a, const float* b, float* c, int n) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int col = blockIdx.y * blockDim.y + threadIdx.y;
  float sum = 0.0f;
  for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
  c[row * n + col] = sum;
}

__global__ void transpose_unpadded(const float* in, float* out, int n) {
  __shared__ float tile[32][32];
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  const int tx = blockIdx.y * 32 + threadIdx.x, ty = blockIdx.x * 32 + threadIdx.y;
  out[ty * n + tx] = tile[threadIdx.x][threadIdx.y];
}

int main() {
  const int n = 64;
  std::vector<float> h(n * n, 1.0f);
  float *a, *b, *c;
  cudaMalloc(&a, n * n * sizeof(float));
  cudaMalloc(&b, n * n * sizeof(float));
  cudaMalloc(&c, n * n * sizeof(float));
  cudaMemcpy(a, h.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(b, h.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
  matmul_rows_by_x<<<dim3(n / 32, n / 8), dim3(32, 8)>>>(a, b, c, n);
  transpose_unpadded<<<dim3(n / 32, n / 32), dim3(32, 32)>>>(a, b, n);
  cudaMemcpy(h.data(), c, sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("c[0] = %.1f\n", h[0]);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return 0;
}
