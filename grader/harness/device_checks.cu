// The kernels behind device_checks.hpp (cuda backend): grid-stride loops, one
// atomic per offending element (few in a correct run) and one per block for
// the digest. device_checks_emu.cpp is the emulator's version.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "harness/device_checks.hpp"

namespace gpulab::harness {
namespace {

constexpr int kThreads = 256;
constexpr int kBlocks = 1024;

struct Counters {
  unsigned long long bad;
  unsigned long long first_bad;
  unsigned int worst_bits;  // a non-negative float's bits order like the float
};

template <class T> __global__ void exact_kernel(const T* got, const T* want, size_t count, Counters* c) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    if (got[i] != want[i]) {
      atomicAdd(&c->bad, 1ull);
      atomicMin(&c->first_bad, static_cast<unsigned long long>(i));
    }
  }
}

__global__ void bounded_kernel(const float* got, const float* want, const float* scale, size_t count, double tolerance,
                               Counters* c) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const double diff = fabs(static_cast<double>(got[i]) - static_cast<double>(want[i]));
    const double bound = tolerance * static_cast<double>(scale[i]);
    const bool finite = isfinite(got[i]) && isfinite(want[i]);
    if (!finite || diff > bound) {
      atomicAdd(&c->bad, 1ull);
      atomicMin(&c->first_bad, static_cast<unsigned long long>(i));
    }
    if (finite && diff > 0) {
      const float ratio = bound > 0 ? static_cast<float>(diff / bound) : INFINITY;
      atomicMax(&c->worst_bits, __float_as_uint(ratio));
    }
  }
}

__global__ void absolute_kernel(float* data, size_t count) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    data[i] = fabsf(data[i]);
  }
}

__device__ unsigned long long mix(unsigned long long x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

__global__ void checksum_kernel(const unsigned char* data, size_t bytes, unsigned long long* out) {
  unsigned long long h = 0;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < bytes;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    h += mix((static_cast<unsigned long long>(data[i]) + 1) * 0x9E3779B97F4A7C15ull + i);
  }
  atomicAdd(out, h);
}

template <class T> __global__ void mix_kernel(T* dst, const T* a, const T* b, size_t count, uint64_t seed) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    dst[i] = (mix_hash(seed ^ i) & 1) ? b[i] : a[i];
  }
}

DeviceComparison finish(Counters* c) {
  DeviceComparison r;
  Counters host{};
  r.ok = cudaDeviceSynchronize() == cudaSuccess &&
         cudaMemcpy(&host, c, sizeof host, cudaMemcpyDeviceToHost) == cudaSuccess;
  cudaFree(c);
  r.bad = host.bad;
  r.first_bad = host.first_bad;
  float worst = 0;
  static_assert(sizeof worst == sizeof host.worst_bits);
  std::memcpy(&worst, &host.worst_bits, sizeof worst);
  r.worst = worst;
  return r;
}

Counters* start() {
  Counters* c = nullptr;
  if (cudaMalloc(&c, sizeof(Counters)) != cudaSuccess) return nullptr;
  const Counters init{0, ~0ull, 0};
  cudaMemcpy(c, &init, sizeof init, cudaMemcpyHostToDevice);
  return c;
}

}  // namespace

DeviceComparison compare_exact(const void* got, const void* want, size_t count, size_t element_size) {
  Counters* c = start();
  if (!c) return {};
  switch (element_size) {
    case 1:
      exact_kernel<<<kBlocks, kThreads>>>(static_cast<const uint8_t*>(got), static_cast<const uint8_t*>(want), count,
                                          c);
      break;
    case 8:
      exact_kernel<<<kBlocks, kThreads>>>(static_cast<const uint64_t*>(got), static_cast<const uint64_t*>(want), count,
                                          c);
      break;
    default:
      exact_kernel<<<kBlocks, kThreads>>>(static_cast<const uint32_t*>(got), static_cast<const uint32_t*>(want), count,
                                          c);
      break;
  }
  return finish(c);
}

DeviceComparison compare_bounded(const float* got, const float* want, const float* scale, size_t count,
                                 double tolerance) {
  Counters* c = start();
  if (!c) return {};
  bounded_kernel<<<kBlocks, kThreads>>>(got, want, scale, count, tolerance, c);
  return finish(c);
}

bool make_absolute(float* data, size_t count) {
  absolute_kernel<<<kBlocks, kThreads>>>(data, count);
  return cudaDeviceSynchronize() == cudaSuccess;
}

unsigned long long device_checksum(const void* data, size_t bytes) {
  unsigned long long* out = nullptr;
  if (cudaMalloc(&out, sizeof *out) != cudaSuccess) return 0;
  cudaMemset(out, 0, sizeof *out);
  checksum_kernel<<<kBlocks, kThreads>>>(static_cast<const unsigned char*>(data), bytes, out);
  unsigned long long h = 0;
  if (cudaDeviceSynchronize() != cudaSuccess || cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess)
    h = 0;
  cudaFree(out);
  return h;
}

bool mix_inputs(void* dst, const void* a, const void* b, size_t count, size_t element_size, uint64_t seed) {
  switch (element_size) {
    case 1:
      mix_kernel<<<kBlocks, kThreads>>>(static_cast<uint8_t*>(dst), static_cast<const uint8_t*>(a),
                                        static_cast<const uint8_t*>(b), count, seed);
      break;
    case 8:
      mix_kernel<<<kBlocks, kThreads>>>(static_cast<uint64_t*>(dst), static_cast<const uint64_t*>(a),
                                        static_cast<const uint64_t*>(b), count, seed);
      break;
    case 4:
      mix_kernel<<<kBlocks, kThreads>>>(static_cast<uint32_t*>(dst), static_cast<const uint32_t*>(a),
                                        static_cast<const uint32_t*>(b), count, seed);
      break;
    default: return false;
  }
  return cudaGetLastError() == cudaSuccess;
}

}  // namespace gpulab::harness
