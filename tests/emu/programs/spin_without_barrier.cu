// A kernel with no barrier that never finishes: thread 3 waits for a flag in
// global memory that nothing sets. The emulator runs barrier-free threads as
// plain calls; its watchdog must still name the kernel, block and thread and
// end the program (tests/emu/CMakeLists.txt runs it with
// GPULAB_EMU_WATCHDOG_SECONDS=1). Never run this on a GPU: it hangs there.
#include <cstdio>

__global__ void wait_for_host(volatile int* flag, int* out) {
  if (threadIdx.x == 3) {
    while (*flag == 0) {
    }  // nobody ever sets it
  }
  out[threadIdx.x] = 1;
}

int main() {
  int *flag = nullptr, *out = nullptr;
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  cudaMalloc(&out, 32 * sizeof(int));
  printf("launching\n");
  wait_for_host<<<1, 32>>>(flag, out);
  const cudaError_t e = cudaDeviceSynchronize();
  printf("finished: %s\n", cudaGetErrorString(e));
  return 0;
}
