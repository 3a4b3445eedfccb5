// Block sums by a tree reduction in shared memory, one __syncthreads per step, then
// __syncthreads_count: every thread waits at a barrier nine times, so the emulator
// switches between its fibers at every step. Prints how many of the sums and counts are wrong.
#include <cstdio>
#include <vector>

constexpr int kThreads = 256;

__global__ void block_sums(const int* in, int* sums, int* evens) {
  __shared__ int partial[kThreads];
  const int t = threadIdx.x;
  const int v = in[blockIdx.x * blockDim.x + t];
  partial[t] = v;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  const int even = __syncthreads_count(v % 2 == 0);
  if (t == 0) {
    sums[blockIdx.x] = partial[0];
    evens[blockIdx.x] = even;
  }
}

int main() {
  const int blocks = 37;
  const int n = blocks * kThreads;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7919) % 1000 - 500;
  int *d_in, *d_sums, *d_evens;
  cudaMalloc(&d_in, n * sizeof(int));
  cudaMalloc(&d_sums, blocks * sizeof(int));
  cudaMalloc(&d_evens, blocks * sizeof(int));
  cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  block_sums<<<blocks, kThreads>>>(d_in, d_sums, d_evens);
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("barrier_sum: the kernel failed: %s\n", cudaGetErrorString(e));
    return 1;
  }
  std::vector<int> sums(blocks), evens(blocks);
  cudaMemcpy(sums.data(), d_sums, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(evens.data(), d_evens, blocks * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int b = 0; b < blocks; ++b) {
    int sum = 0, even = 0;
    for (int t = 0; t < kThreads; ++t) {
      sum += in[b * kThreads + t];
      even += in[b * kThreads + t] % 2 == 0;
    }
    wrong += sums[b] != sum;
    wrong += evens[b] != even;
  }
  cudaFree(d_in);
  cudaFree(d_sums);
  cudaFree(d_evens);
  std::printf("barrier_sum: %d blocks, %d wrong\n", blocks, wrong);
  return wrong == 0 ? 0 : 1;
}
