// A kernel that never finishes: thread 0 waits for a shared flag that no other
// thread sets. The emulator's watchdog must name the kernel, block and thread
// and end the program (tests/emu/CMakeLists.txt runs it with
// GPULAB_EMU_WATCHDOG_SECONDS=1). Never run this on a GPU: it hangs there.
#include <cstdio>

__global__ void wait_for_flag(int* out) {
  __shared__ volatile int ready;
  if (threadIdx.x == 0) ready = 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    while (ready == 0) {
    }  // nobody ever sets it
  }
  out[threadIdx.x] = ready;
}

int main() {
  int* d = nullptr;
  cudaMalloc(&d, 32 * sizeof(int));
  printf("launching\n");
  wait_for_flag<<<1, 32>>>(d);
  const cudaError_t e = cudaDeviceSynchronize();
  printf("finished: %s\n", cudaGetErrorString(e));
  cudaFree(d);
  return 0;
}
