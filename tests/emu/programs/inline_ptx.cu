// Inline PTX cannot run on the emulator: `gpulab run` must say so at the
// student's line (7) instead of passing PTX to the x86 assembler.
#include <cstdio>

__global__ void lane_ids(unsigned* out) {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  out[threadIdx.x] = lane;
}

int main() {
  unsigned* d = nullptr;
  cudaMalloc(&d, 32 * sizeof(unsigned));
  lane_ids<<<1, 32>>>(d);
  std::printf("%d\n", static_cast<int>(cudaDeviceSynchronize()));
  return 0;
}
