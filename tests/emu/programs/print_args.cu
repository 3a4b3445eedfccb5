// Prints its arguments in brackets, to show what `gpulab run` passes to a program.
#include <cstdio>

__global__ void noop() {}

int main(int argc, char** argv) {
  noop<<<1, 1>>>();
  cudaDeviceSynchronize();
  std::printf("args:");
  for (int i = 1; i < argc; ++i) std::printf(" [%s]", argv[i]);
  std::printf("\n");
  return 0;
}
