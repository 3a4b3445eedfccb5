// Shared pieces of the reference-tuning programs (bench/references/*.cu): input
// generation on the device, timing as `gpulab bench` times (L2 flushed before
// every run, events around the call, device-wide synchronisation before the
// stop event, median), checks, and the table they print. Each program times the
// library baseline, the previous reference and the candidate shapes of the new
// one in one process, so that one GPU call can choose among them.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#define CHECK_CUDA(call)                                                                            \
  do {                                                                                              \
    cudaError_t err_ = (call);                                                                      \
    if (err_ != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
      std::exit(1);                                                                                 \
    }                                                                                               \
  } while (0)

namespace refbench {

inline __host__ __device__ uint32_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return static_cast<uint32_t>(x);
}

__global__ void fill_uniform_kernel(float* p, size_t n, float lo, float hi, uint64_t seed) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = lo + (hi - lo) * (mix(seed * 0x9E3779B97F4A7C15ULL + i) >> 8) * (1.0f / 16777216.0f);
}

__global__ void fill_int_kernel(int* p, size_t n, int lo, int hi, uint64_t seed) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = lo + static_cast<int>(mix(seed * 0x9E3779B97F4A7C15ULL + i) % static_cast<uint32_t>(hi - lo + 1));
}

__global__ void fill_bytes_kernel(unsigned char* p, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    p[i] = static_cast<unsigned char>(mix(seed * 0x9E3779B97F4A7C15ULL + i) >> 24);
}

inline void fill_uniform(float* p, size_t n, float lo, float hi, uint64_t seed) {
  fill_uniform_kernel<<<1024, 256>>>(p, n, lo, hi, seed);
  CHECK_CUDA(cudaGetLastError());
}
inline void fill_int(int* p, size_t n, int lo, int hi, uint64_t seed) {
  fill_int_kernel<<<1024, 256>>>(p, n, lo, hi, seed);
  CHECK_CUDA(cudaGetLastError());
}
inline void fill_bytes(unsigned char* p, size_t n, uint64_t seed) {
  fill_bytes_kernel<<<1024, 256>>>(p, n, seed);
  CHECK_CUDA(cudaGetLastError());
}

__global__ void max_diff_kernel(const float* a, const float* b, size_t n, unsigned* out) {
  float d = 0.f, m = 0.f;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const float x = a[i], y = b[i];
    d = fmaxf(d, x == x ? fabsf(x - y) : INFINITY);  // NaN never passes
    m = fmaxf(m, fabsf(y));
  }
  atomicMax(&out[0], __float_as_uint(d));  // non-negative floats order as their bits
  atomicMax(&out[1], __float_as_uint(m));
}

// max |a - b| over max |b| (NaN in a: infinity).
inline double relative_diff(const float* a, const float* b, size_t n) {
  static unsigned* d = nullptr;
  if (!d) CHECK_CUDA(cudaMalloc(&d, 2 * sizeof(unsigned)));
  CHECK_CUDA(cudaMemset(d, 0, 2 * sizeof(unsigned)));
  max_diff_kernel<<<1024, 256>>>(a, b, n, d);
  unsigned h[2];
  CHECK_CUDA(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  float fd, fm;
  std::memcpy(&fd, &h[0], 4);
  std::memcpy(&fm, &h[1], 4);
  return fm > 0 ? fd / fm : fd;
}

inline bool same_bytes(const void* a, const void* b, size_t bytes) {
  std::vector<char> x(bytes), y(bytes);
  CHECK_CUDA(cudaMemcpy(x.data(), a, bytes, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(y.data(), b, bytes, cudaMemcpyDeviceToHost));
  return x == y;
}

// Times f as gpulab bench does: one warm-up, then runs each preceded by an L2
// flush, events around the call and a device-wide synchronisation before the
// stop event; the median in milliseconds.
inline double time_ms(const std::function<void()>& f, int runs) {
  static char* flush = nullptr;
  const size_t flush_bytes = 256u << 20;  // several times the H200's 60 MB L2
  if (!flush) CHECK_CUDA(cudaMalloc(&flush, flush_bytes));
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  f();
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaGetLastError());
  std::vector<double> t;
  for (int r = 0; r < runs; ++r) {
    CHECK_CUDA(cudaMemsetAsync(flush, r & 0xFF, flush_bytes));
    CHECK_CUDA(cudaDeviceSynchronize());  // the call starts on an idle device, as in gpulab bench
    CHECK_CUDA(cudaEventRecord(start));
    f();
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUDA(cudaEventRecord(stop));
    CHECK_CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
    t.push_back(ms);
  }
  CHECK_CUDA(cudaGetLastError());
  std::sort(t.begin(), t.end());
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
  return t[t.size() / 2];
}

// One implementation of a case: a name, a call, and what its output is checked against.
struct Impl {
  std::string name;
  std::function<void()> run;
};

// Command line: `--only NAME` runs just that implementation once per case
// (for Nsight Compute), `--runs N` sets the timed runs, `--quick` the small
// sizes only.
struct Options {
  std::string only;
  int runs = 15;
  bool quick = false;
  static Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
      if (!std::strcmp(argv[i], "--only") && i + 1 < argc) o.only = argv[++i];
      else if (!std::strcmp(argv[i], "--runs") && i + 1 < argc) o.runs = std::atoi(argv[++i]);
      else if (!std::strcmp(argv[i], "--quick")) o.quick = true;
    }
    return o;
  }
};

// Prints one table row; `base_ms` is the baseline's median (ratio = base / this).
inline void row(const char* part, const std::string& label, const std::string& impl, double ms, double base_ms,
                double work, const char* unit, const char* ok) {
  std::printf("| %s | %s | %s | %.4f ms | %.0f %s | %.3fx | %s |\n", part, label.c_str(), impl.c_str(), ms,
              work / ms / 1e6, unit, base_ms / ms, ok);
  std::fflush(stdout);
}

inline void header(const char* lab, const char* base) {
  std::printf(
      "\n## %s\n\n| part | case | implementation | median | throughput | vs %s | ok "
      "|\n|---|---|---|---:|---:|---:|---|\n",
      lab, base);
}

}  // namespace refbench
