// A local header that tests __CUDA_ARCH__ as course headers do: a macro chosen by architecture, a
// __host__ __device__ helper with a host fallback, and a device function guarded at namespace scope.
#pragma once

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define PROBE_HOPPER 1
#else
#define PROBE_HOPPER 0
#endif

__host__ __device__ inline int lane_or_minus_one() {
#if defined(__CUDA_ARCH__)
  return static_cast<int>(threadIdx.x % 32);
#else
  return -1;
#endif
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600
// Native on sm_60 and later: no polyfill.
#else
__device__ double atomicAdd(double* address, double value) {
  return value + *address;  // never compiled for sm_90: the native atomicAdd is used
}
#endif

#if __CUDA_ARCH__ >= 700
__device__ int from_guarded_header() { return 7; }
#endif
