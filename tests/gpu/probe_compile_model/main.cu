// Prints what nvcc's compile model gives a program: __CUDA_ARCH__ defined (900 on an H100) in
// the device pass only, tested in kernels, in __host__ __device__ functions called from both
// sides, around whole functions at namespace scope (with #else branches of host code), in a local
// header and through a macro defined under it; nvcc's own macros; a host source compiled as plain
// C++; quoted includes found next to the including file first; launches by address of kernels
// whose bodies are guarded (cooperative too) and of a template's instantiation. Run on a GPU, its
// output is recorded in expected/; the emulator must print the same.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <cstdio>

#include "arch_guards.cuh"
#include "config.h"
#include "sizes.h"

namespace cg = cooperative_groups;

void report_host_helpers();  // host_helpers.cpp

// The issue's program: a body under #if, and a __host__ __device__ function under #ifdef.
__global__ void k(int* o) {
#if __CUDA_ARCH__ >= 700
  *o = 42;
#endif
}

__host__ __device__ int sees_arch() {
#ifdef __CUDA_ARCH__
  return 1;
#else
  return 0;
#endif
}

__global__ void call_sees_arch(int* o) { *o = sees_arch(); }

// Guards at namespace scope around whole kernels, with the host pass's version in #else.
#if __CUDA_ARCH__ >= 800
__global__ void by_arch(int* o) { *o = 800; }
#else
__global__ void by_arch(int* o) { *o = -1; }
#endif

#ifndef __CUDA_ARCH__
static const char* side_name() { return "host"; }
#else
static const char* side_name() { return "device"; }  // the device pass's: host code never calls it
#endif

// Arithmetic comparisons, #ifndef and #elif inside a kernel; __CUDA_ARCH__ as a value.
__global__ void compare(int* o) {
#if __CUDA_ARCH__ / 100 == 9
  o[0] = 1;
#else
  o[0] = 0;
#endif
#if (__CUDA_ARCH__ >= 800) && (__CUDA_ARCH__ < 1000)
  o[1] = 1;
#elif __CUDA_ARCH__ >= 1000
  o[1] = 2;
#else
  o[1] = 0;
#endif
#ifndef __CUDA_ARCH__
  o[2] = -1;
#else
  o[2] = __CUDA_ARCH__;
#endif
  o[3] = PROBE_HOPPER;
  if (threadIdx.x == 2) o[4] = lane_or_minus_one();
#if __CUDA_ARCH__ >= 700
  o[5] = from_guarded_header();
#endif
  o[6] = static_cast<int>(umin(7u, 4u));  // CUDA's own umin, beside host_helpers.cpp's
}

// A member function and a template, both __host__ __device__.
struct Where {
  __host__ __device__ int code() const {
#if defined(__CUDA_ARCH__)
    return 10 + __CUDA_ARCH__ / 100;
#else
    return 20;
#endif
  }
};
template <int N> __host__ __device__ int scaled() {
#ifdef __CUDA_ARCH__
  return N * 2;
#else
  return N * 3;
#endif
}
__global__ void members(int* o) {
  o[0] = Where{}.code();
  o[1] = scaled<5>();
}

// A warp-aggregated maximum with cooperative groups, guarded as cuda-samples guard Volta code.
#if __CUDA_ARCH__ >= 700
__device__ void aggregated_max(int* counter, int value) {
  cg::coalesced_group active = cg::coalesced_threads();
  const int max_in_group = cg::reduce(active, value, cg::greater<int>());
  if (active.thread_rank() == 0) atomicMax(counter, max_in_group);
}
#endif
__global__ void max_kernel(const int* values, int n, int* counter) {
#if __CUDA_ARCH__ >= 700
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) aggregated_max(counter, values[i]);
#endif
}

// Launched by address, cooperatively, with a body under the same guard.
__global__ void grid_sum(const int* values, int n, int* partial, int* total) {
#if __CUDA_ARCH__ >= 700
  cg::grid_group grid = cg::this_grid();
  const int i = static_cast<int>(grid.thread_rank());
  if (i < n) atomicAdd(&partial[blockIdx.x], values[i]);
  grid.sync();
  if (i == 0) {
    int sum = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];
    *total = sum;
  }
#endif
}

template <int Scale> __global__ void scale_kernel(int* o) { o[threadIdx.x] = static_cast<int>(threadIdx.x) * Scale; }

int main() {
  int* o = nullptr;
  cudaMallocManaged(&o, 64 * sizeof(int));
  for (int i = 0; i < 64; ++i) o[i] = 0;

  k<<<1, 1>>>(o);
  call_sees_arch<<<1, 1>>>(o + 1);
  by_arch<<<1, 1>>>(o + 2);
  cudaDeviceSynchronize();
  std::printf("kernel wrote %d, device code sees __CUDA_ARCH__: %d, host code: %d\n", o[0], o[1], sees_arch());
  std::printf("kernel chosen at namespace scope: %d, %s code sees it undefined\n", o[2], side_name());

  compare<<<1, 3>>>(o + 8);
  members<<<1, 1>>>(o + 16);
  cudaDeviceSynchronize();
  std::printf("comparisons %d %d %d, macro %d (host %d), lane %d (host %d), guarded header %d, umin %d\n", o[8],
              o[9], o[10], o[11], PROBE_HOPPER, o[12], lane_or_minus_one(), o[13], o[14]);
  std::printf("member %d (host %d), template %d (host %d)\n", o[16], Where{}.code(), o[17], scaled<5>());

  const int n = 200;
  int* values = nullptr;
  cudaMallocManaged(&values, n * sizeof(int));
  int expected_max = 0, expected_sum = 0;
  for (int i = 0; i < n; ++i) {
    values[i] = (i * 37) % 101;
    expected_max = values[i] > expected_max ? values[i] : expected_max;
    expected_sum += values[i];
  }
  o[20] = 0;
  max_kernel<<<4, 64>>>(values, n, o + 20);
  cudaDeviceSynchronize();
  std::printf("warp-aggregated maximum %d (expected %d): %s\n", o[20], expected_max,
              o[20] == expected_max ? "PASSED" : "FAILED");

  int* partial = o + 24;
  int* total = o + 23;
  void* args[] = {&values, const_cast<int*>(&n), &partial, &total};
  const cudaError_t coop = cudaLaunchCooperativeKernel((void*)grid_sum, 4, 64, args);
  const cudaError_t coop_sync = cudaDeviceSynchronize();
  std::printf("cooperative launch by address: %s, %s, total %d (expected %d)\n", cudaGetErrorName(coop),
              cudaGetErrorName(coop_sync), *total, expected_sum);

  int* scaled_out = o + 32;
  void* scale_args[] = {&scaled_out};
  const cudaError_t by_address = cudaLaunchKernel((void*)scale_kernel<3>, 1, 8, scale_args);
  cudaDeviceSynchronize();
  std::printf("template kernel by address: %s, %d %d\n", cudaGetErrorName(by_address), o[33], o[39]);

#if defined(__CUDACC__) && defined(__NVCC__)
  std::printf("__CUDACC__ and __NVCC__ defined, CUDA %d.%d, __CUDA_ARCH_LIST__ %d, CUDART_VERSION %d\n",
              __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__, __CUDA_ARCH_LIST__, CUDART_VERSION);
#endif
  std::printf("main.cu's config.h: %s; include/sizes.h's: %s\n", PROBE_CONFIG_FROM, PROBE_SIZES_SEE);
  report_host_helpers();
  cudaFree(values);
  cudaFree(o);
  return 0;
}
