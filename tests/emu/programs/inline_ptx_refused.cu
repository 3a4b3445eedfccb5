// An inline PTX instruction the emulator does not run (vabsdiff2, a SIMD video
// instruction): `gpulab run` must name it at the student's line (7) instead of
// passing PTX to the x86 assembler.
#include <cstdio>

__global__ void sad2(unsigned* out, unsigned a, unsigned b) {
  unsigned r; asm("vabsdiff2.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(0u));
  out[threadIdx.x] = r;
}

int main() {
  unsigned* d = nullptr;
  cudaMalloc(&d, 32 * sizeof(unsigned));
  sad2<<<1, 32>>>(d, 0x00050003u, 0x00010007u);
  std::printf("%d\n", static_cast<int>(cudaDeviceSynchronize()));
  return 0;
}
