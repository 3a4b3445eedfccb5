// Lab: matmul. Legitimate: the product's kernel launched through a CUDA graph captured from a
// stream (kernel nodes only), and the first element copied back for a debugging print. Every
// correctness point kept.
#include <cstdio>

__global__ void product(const float* a, const float* b, float* c, int m, int n, int k) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n) return;
  float sum = 0;
  for (int p = 0; p < k; ++p) sum += a[row * k + p] * b[p * n + col];
  c[row * n + col] = sum;
}

void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  const dim3 block(16, 16), grid((n + 15) / 16, (m + 15) / 16);
  product<<<grid, block, 0, stream>>>(a, b, c, m, n, k);
  cudaGraph_t graph;
  cudaStreamEndCapture(stream, &graph);
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, stream);
  cudaStreamSynchronize(stream);
  float first = 0;
  cudaMemcpy(&first, c, sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("c[0] = %g\n", first);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
}
