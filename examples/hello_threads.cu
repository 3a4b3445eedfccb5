// Example: printf from device code, with a 2-D grid of 2-D blocks.
// Output appears at the next synchronisation, as on a GPU.
#include <cstdio>

__global__ void hello() {
  if (threadIdx.x == 0 && threadIdx.y == 0) {
    printf("block (%d,%d) of (%d,%d): %d threads\n", blockIdx.x, blockIdx.y, gridDim.x, gridDim.y,
           blockDim.x * blockDim.y);
  }
}

int main() {
  printf("launching\n");
  hello<<<dim3(2, 1), dim3(8, 4)>>>();
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
