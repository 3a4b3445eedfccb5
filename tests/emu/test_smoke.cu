// Smoke test: a shared-memory tree reduction gives the exact sum.
#include <catch2/catch.hpp>
#include <vector>

__global__ void block_sum(const float* in, float* out, int n) {
  __shared__ float partial[256];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + t;
  partial[t] = i < (unsigned)n ? in[i] : 0.0f;
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    __syncthreads();
    if (t < s) partial[t] += partial[t + s];
  }
  if (t == 0) atomicAdd(out, partial[0]);
}

TEST_CASE("tree reduction sums exactly") {
  const int n = 100003;
  std::vector<float> h(n, 1.0f);
  float *d, *o;
  REQUIRE(cudaMalloc(&d, n * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMalloc(&o, sizeof(float)) == cudaSuccess);
  cudaMemcpy(d, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(o, 0, sizeof(float));
  block_sum<<<(n + 255) / 256, 256>>>(d, o, n);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  float r = 0;
  cudaMemcpy(&r, o, sizeof(float), cudaMemcpyDeviceToHost);
  CHECK(r == n);
  cudaFree(d);
  cudaFree(o);
}
