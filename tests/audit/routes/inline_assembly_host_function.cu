// Audit route: inline assembly in a host function (both backends compile it, as nvcc's host pass
// does), beside inline PTX in device code, which is normal and not flagged, also through a macro
// and under __CUDA_ARCH__ in a __host__ __device__ function.
#include <cuda_runtime.h>

#define LANE_ID(r) asm volatile("mov.u32 %0, %%laneid;" : "=r"(r))

__device__ unsigned lane() {
  unsigned r;
  LANE_ID(r);
  return r;
}

__host__ __device__ unsigned one() {
#ifdef __CUDA_ARCH__
  unsigned r;
  asm("mov.u32 %0, 1;" : "=r"(r));
  return r;
#else
  return 1;
#endif
}

__global__ void lanes(unsigned* out) { out[threadIdx.x] = lane() + one(); }

unsigned long long host_clock() {
#if defined(__x86_64__)
  unsigned lo, hi;
  asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return (static_cast<unsigned long long>(hi) << 32) | lo;
#else
  unsigned long long t;
  asm volatile("mrs %0, cntvct_el0" : "=r"(t));
  return t;
#endif
}

void reduce_sum_int(const int*, int* out, int) {
  lanes<<<1, 32>>>(reinterpret_cast<unsigned*>(out));
  *out += static_cast<int>(host_clock() & 1);
}
