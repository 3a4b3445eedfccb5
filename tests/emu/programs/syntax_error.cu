// A program with a typo on line 6: `gpulab run` must show the compiler's error
// against this file and line (not the rewritten source), and fail.
#include <cstdio>

__global__ void k(float* out) {
  out[threadIdx.x] = 1.0f   // missing semicolon
}

int main() {
  k<<<1, 1>>>(nullptr);
  return 0;
}
