// A barrier-free kernel whose threads each take long, but which makes
// progress: one block of 8 threads, each busy for about 0.4 s. The emulator
// runs them one after another as plain calls, 3.2 s in all; its watchdog
// (tests/emu/CMakeLists.txt runs this with GPULAB_EMU_WATCHDOG_SECONDS=1) must
// see each thread start and let the kernel finish.
#include <cstdio>

__global__ void busy(long long ticks, int* out) {
  const long long start = clock64();
  while (clock64() - start < ticks) {
  }
  out[threadIdx.x] = threadIdx.x + 1;
}

int main() {
  int* out = nullptr;
  cudaMalloc(&out, 8 * sizeof(int));
  cudaMemset(out, 0, 8 * sizeof(int));
  busy<<<1, 8>>>(400000000LL, out);  // clock64() counts nanoseconds on the emulator
  const cudaError_t e = cudaDeviceSynchronize();
  int host[8] = {};
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  int sum = 0;
  for (int v : host) sum += v;
  printf("finished: %s, sum %d\n", cudaGetErrorString(e), sum);
  return 0;
}
