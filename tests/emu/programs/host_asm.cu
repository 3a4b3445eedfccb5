// Host functions in a .cu file may hold the host's own assembly (Boost's x86 rounding control in
// cuda-samples' interval, cycle counters, a `nop`): nvcc's host pass hands it to the host
// compiler, and so must the emulator, while the PTX of a device function beside it runs as PTX.
// `nop` assembles on x86-64 and AArch64 alike; the cycle counter is x86's or Arm's own.
#include <cstdio>

#define DEVICE_FN __device__  // qualifiers the rewriter cannot see: the asm's text says it is PTX

static void host_pause() { asm volatile("nop"); }

static unsigned long long host_cycles() {
#if defined(__x86_64__)
  unsigned lo, hi;
  __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
  return (static_cast<unsigned long long>(hi) << 32) | lo;
#elif defined(__aarch64__)
  unsigned long long v;
  asm volatile("mrs %0, cntvct_el0" : "=r"(v));
  return v;
#else
  return 1;
#endif
}

DEVICE_FN unsigned lane_of_thread() {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane;
}

__global__ void lanes(unsigned* out) { out[threadIdx.x] = lane_of_thread(); }

int main() {
  host_pause();
  const unsigned long long before = host_cycles();
  unsigned* d = nullptr;
  cudaMallocManaged(&d, 64 * sizeof(unsigned));
  lanes<<<1, 64>>>(d);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  int wrong = 0;
  for (unsigned i = 0; i < 64; ++i) wrong += d[i] != i % 32;
  std::printf("lanes: %d wrong; host counter %s\n", wrong, host_cycles() >= before ? "advanced" : "went back");
  return 0;
}
