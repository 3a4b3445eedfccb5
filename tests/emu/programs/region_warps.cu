// Warp collectives and the region form, as `gpulab run --verbose` tells them: a warp sum in the
// kernel's own uniform loop runs as regions between barriers; one under `if (threadIdx.x < 32)`,
// and one inside a device function, keep one fiber per thread, each with its reason. All three
// give the right sums.
#include <cstdio>
#include <vector>

constexpr unsigned kFull = 0xffffffffu;

__global__ void warp_total(const int* in, int* out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(kFull, v, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}

__global__ void first_warp(const int* in, int* out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (threadIdx.x < 32) {
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(kFull, v, offset);
  }
  if (threadIdx.x == 0) atomicAdd(out, v);
}

__device__ int warp_sum(int v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(kFull, v, offset);
  return v;
}

__global__ void through_helper(const int* in, int* out) {
  const int v = warp_sum(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x % 32 == 0) atomicAdd(out, v);
}

int main() {
  const int blocks = 8, threads = 128, n = blocks * threads;
  std::vector<int> h(n);
  long long total = 0, first = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = (i * 7919) % 1000 - 300;
    total += h[i];
    if (i % threads < 32) first += h[i];
  }
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, 3 * sizeof(int));
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(out, 0, 3 * sizeof(int));
  warp_total<<<blocks, threads>>>(in, out);
  first_warp<<<blocks, threads>>>(in, out + 1);
  through_helper<<<blocks, threads>>>(in, out + 2);
  int got[3];
  cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
  const int wrong = (got[0] != total) + (got[1] != first) + (got[2] != total);
  std::printf("region warps: %d wrong\n", wrong);
  return wrong != 0;
}
