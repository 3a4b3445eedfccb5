// A kernel with no barrier prints from every thread and one thread writes past
// the end of its array: the lines come out in thread order per block, block by
// block as whole blocks, and the out-of-bounds write is still reported
// (tests/emu/CMakeLists.txt checks the output). The emulator runs such threads
// as plain calls, without fibers; this checks that nothing is lost that way.
#include <cstdio>

__global__ void greet(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  printf("block %d thread %d\n", blockIdx.x, threadIdx.x);
  if (i <= n) out[i] = i;  // i == n is one past the end
}

int main() {
  const int n = 7;
  int* d = nullptr;
  cudaMalloc(&d, n * sizeof(int));
  printf("launching\n");
  greet<<<2, 4>>>(d, n);
  const cudaError_t e = cudaDeviceSynchronize();
  printf("finished: %s\n", cudaGetErrorName(e));
  cudaFree(d);
  return 0;
}
