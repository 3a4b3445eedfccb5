// A kernel that calls a header's function that synchronises runs one fiber per thread; one whose
// uniform loop reads a header's constant runs as regions between barriers. `gpulab run --verbose`
// says which, and both give the right values.
#include <cstdio>
#include <vector>

#include "block_helpers.cuh"

__global__ void shifted(const int* in, int* out) {
  __shared__ int s[64];
  const int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  shift_left(s, t);
  out[t] = s[t];
}

__global__ void rounds(const int* in, int* out) {
  __shared__ int s[64];
  const int t = threadIdx.x;
  s[t] = in[t];
  for (int r = 0; r < ROUNDS; ++r) {
    __syncthreads();
    const int v = s[(t + 1) % 64];
    __syncthreads();
    s[t] = v;
  }
  out[t] = s[t];
}

int main() {
  std::vector<int> h(64);
  for (int i = 0; i < 64; ++i) h[i] = i * i;
  int *in, *a, *b;
  cudaMalloc(&in, 64 * sizeof(int));
  cudaMalloc(&a, 64 * sizeof(int));
  cudaMalloc(&b, 64 * sizeof(int));
  cudaMemcpy(in, h.data(), 64 * sizeof(int), cudaMemcpyHostToDevice);
  shifted<<<1, 64>>>(in, a);
  rounds<<<1, 64>>>(in, b);
  std::vector<int> ha(64), hb(64);
  cudaMemcpy(ha.data(), a, 64 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(hb.data(), b, 64 * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < 64; ++i) {
    wrong += ha[i] != h[(i + 1) % 64];
    wrong += hb[i] != h[(i + ROUNDS) % 64];
  }
  std::printf("regions across files: %d wrong\n", wrong);
  return wrong != 0;
}
