// Inline PTX as cuda-samples' inlinePTX writes it: each thread reads its lane
// with `mov.u32 %0, %%laneid;`. `gpulab run` must run it and print the lanes.
#include <cstdio>

__global__ void lane_ids(unsigned* out) {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  out[blockIdx.x * blockDim.x + threadIdx.x] = lane;
}

int main() {
  unsigned* d = nullptr;
  cudaMallocManaged(&d, 96 * sizeof(unsigned));
  lane_ids<<<2, 48>>>(d);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  int wrong = 0;
  for (unsigned i = 0; i < 96; ++i) wrong += d[i] != (i % 48) % 32;
  std::printf("lanes: %d wrong\n", wrong);
  return 0;
}
