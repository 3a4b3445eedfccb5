// A helper header of the idioms' submissions: a device function, a host function and a
// template, included from the .cu as students split their code.
#pragma once
#include <cuda_runtime.h>

#include <cstdio>

__device__ inline float square(float x) { return x * x; }

template <typename T>
__host__ __device__ inline T ceil_div(T a, T b) {
  return (a + b - 1) / b;
}

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
}
