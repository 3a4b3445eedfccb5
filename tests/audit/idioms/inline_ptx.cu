// Idiom (cuda only: the emulator refuses inline PTX today): inline PTX in device code, directly,
// through a macro and under __CUDA_ARCH__ in a __host__ __device__ function; none of it is host
// code.
#include <cuda_runtime.h>

#define LANE_ID(r) asm volatile("mov.u32 %0, %%laneid;" : "=r"(r))

__device__ unsigned warp_id() {
  unsigned w;
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
  return w;
}

__host__ __device__ unsigned lane_or_zero() {
#ifdef __CUDA_ARCH__
  unsigned r;
  LANE_ID(r);
  return r;
#else
  return 0;
#endif
}

__global__ void ids(unsigned* out) { out[threadIdx.x] = lane_or_zero() + warp_id(); }

void reduce_sum_int(const int*, int* out, int) { ids<<<1, 32>>>(reinterpret_cast<unsigned*>(out)); }
