// A standalone program for `gpulab run --race-check`: a byte histogram whose
// kernel increments the global bins without atomics (a data race between
// threads of the same and of different blocks). It still prints its total
// (4096 on the emulator, where blocks run one at a time; a GPU loses
// increments): the race check reports, it does not change what the program does.
#include <cstdio>
#include <vector>

__global__ void histogram_racy(const unsigned char* data, unsigned int* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) bins[data[i] % 16]++;
}

int main() {
  const int n = 4096;
  std::vector<unsigned char> h(n);
  for (int i = 0; i < n; ++i) h[i] = static_cast<unsigned char>(i * 7);
  unsigned char* data;
  unsigned int* bins;
  cudaMalloc(&data, n);
  cudaMalloc(&bins, 16 * sizeof(unsigned int));
  cudaMemcpy(data, h.data(), n, cudaMemcpyHostToDevice);
  cudaMemset(bins, 0, 16 * sizeof(unsigned int));
  histogram_racy<<<n / 256, 256>>>(data, bins, n);
  unsigned int out[16];
  cudaMemcpy(out, bins, sizeof out, cudaMemcpyDeviceToHost);
  unsigned long long total = 0;
  for (unsigned v : out) total += v;
  std::printf("histogram total: %llu\n", total);
  cudaFree(data);
  cudaFree(bins);
  return 0;
}
