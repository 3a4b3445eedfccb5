// Conformance: asynchronous copies into shared memory (cuda_pipeline.h):
// 16-, 8- and 4-byte copies with zero fill for cells outside the input, one
// batch waited for with __pipeline_wait_prior(0), and two batches in flight
// where __pipeline_wait_prior(1) makes the older one visible (double
// buffering, as the convolution reference uses it). Plain CUDA: these cases
// also build with nvcc and pass on a GPU.
// Emulator only (#ifdef GPULAB_EMULATOR): a copy is performed when its batch is
// waited for, so reading the destination before the wait gives the poison of
// fresh shared memory, and misuse (a 12-byte copy, a misaligned address) is
// reported with the kernel, block, thread and line.
#include <catch2/catch.hpp>
#include <cuda_pipeline.h>

#include <cmath>
#include <vector>

#ifdef GPULAB_EMULATOR
#include "gpulab/emu/diagnostics_api.hpp"
#endif

namespace {

constexpr int kThreads = 64;

// A device copy of `host`.
template <class T>
T* to_device(const std::vector<T>& host) {
  T* d = nullptr;
  REQUIRE(cudaMalloc(&d, host.size() * sizeof(T)) == cudaSuccess);
  REQUIRE(cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
  return d;
}

// Each thread copies 4 floats (one 16-byte copy) of a 256-float window that
// starts at `start` (a multiple of 4, maybe negative); cells outside [0, n) are zero.
__global__ void stage_with_fill(const float* in, int n, int start, float* out) {
  __shared__ __align__(16) float tile[4 * kThreads];
  const int g = start + 4 * static_cast<int>(threadIdx.x);
  const bool inside = g >= 0 && g + 3 < n;
  __pipeline_memcpy_async(&tile[4 * threadIdx.x], inside ? in + g : in, 16, inside ? 0 : 16);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  for (int i = threadIdx.x; i < 4 * kThreads; i += kThreads) out[i] = tile[(i + 4) % (4 * kThreads)];
}

// Partial fills: an 8-byte copy of which the last 4 are zero-filled, and 4-byte copies.
__global__ void partial_fill(const int* in, int* out) {
  __shared__ __align__(8) int s[4];
  if (threadIdx.x == 0) {
    __pipeline_memcpy_async(&s[0], in, 8, 4);       // s[0] = in[0], s[1] = 0
    __pipeline_memcpy_async(&s[2], in + 3, 4, 0);   // s[2] = in[3]
    __pipeline_memcpy_async(&s[3], in + 2, 4, 4);   // s[3] = 0
    __pipeline_commit();
    __pipeline_wait_prior(0);
    for (int i = 0; i < 4; ++i) out[i] = s[i];
  }
}

// Two batches in flight: after wait_prior(1) the first is visible.
__global__ void two_batches(const float* a, const float* b, float* out) {
  __shared__ __align__(16) float first[4 * kThreads], second[4 * kThreads];
  const int t = threadIdx.x;
  __pipeline_memcpy_async(&first[4 * t], a + 4 * t, 16);
  __pipeline_commit();
  __pipeline_memcpy_async(&second[4 * t], b + 4 * t, 16);
  __pipeline_commit();
  __pipeline_wait_prior(1);
  __syncthreads();
  out[t] = first[(4 * t + 5) % (4 * kThreads)];
  __pipeline_wait_prior(0);
  __syncthreads();
  out[kThreads + t] = second[(4 * t + 7) % (4 * kThreads)];
}

}  // namespace

TEST_CASE("async copy: a 16-byte copy per thread, zero fill outside the input") {
  const int n = 200;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = 1.0f + i;
  float* in = to_device(host);
  float* out = nullptr;
  REQUIRE(cudaMalloc(&out, 4 * kThreads * sizeof(float)) == cudaSuccess);
  const int start = -8;
  stage_with_fill<<<1, kThreads>>>(in, n, start, out);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<float> got(4 * kThreads);
  REQUIRE(cudaMemcpy(got.data(), out, got.size() * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);
  int wrong = 0;
  for (int i = 0; i < 4 * kThreads; ++i) {
    const int cell = (i + 4) % (4 * kThreads);
    const int g = start + cell;
    const int vec_start = start + cell / 4 * 4;
    const bool inside = vec_start >= 0 && vec_start + 3 < n;
    const float expected = inside ? host[g] : 0.0f;
    if (got[i] != expected) ++wrong;
  }
  CHECK(wrong == 0);
  CHECK(got[0] == 0.0f);  // cell 4: input -4, outside
  CHECK(got[4] == 1.0f);  // cell 8: input 0
  cudaFree(in);
  cudaFree(out);
}

TEST_CASE("async copy: 8- and 4-byte copies with partial and whole zero fill") {
  const std::vector<int> host = {11, 22, 33, 44};
  int* in = to_device(host);
  int* out = nullptr;
  REQUIRE(cudaMalloc(&out, 4 * sizeof(int)) == cudaSuccess);
  partial_fill<<<1, 32>>>(in, out);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<int> got(4);
  REQUIRE(cudaMemcpy(got.data(), out, 4 * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(got == std::vector<int>{11, 0, 44, 0});
  cudaFree(in);
  cudaFree(out);
}

TEST_CASE("async copy: two batches in flight, __pipeline_wait_prior(1) completes the older") {
  std::vector<float> a(4 * kThreads), b(4 * kThreads);
  for (int i = 0; i < 4 * kThreads; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 1000.0f + i;
  }
  float* da = to_device(a);
  float* db = to_device(b);
  float* out = nullptr;
  REQUIRE(cudaMalloc(&out, 2 * kThreads * sizeof(float)) == cudaSuccess);
  two_batches<<<3, kThreads>>>(da, db, out);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<float> got(2 * kThreads);
  REQUIRE(cudaMemcpy(got.data(), out, got.size() * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);
  int wrong = 0;
  for (int t = 0; t < kThreads; ++t) {
    if (got[t] != a[(4 * t + 5) % (4 * kThreads)]) ++wrong;
    if (got[kThreads + t] != b[(4 * t + 7) % (4 * kThreads)]) ++wrong;
  }
  CHECK(wrong == 0);
  cudaFree(da);
  cudaFree(db);
  cudaFree(out);
}

#ifdef GPULAB_EMULATOR
namespace {
__global__ void read_before_wait(const float* in, float* out) {
  __shared__ __align__(16) float tile[4];
  if (threadIdx.x == 0) {
    __pipeline_memcpy_async(tile, in, 16);
    __pipeline_commit();
    out[0] = tile[1];  // too early: the copy may not have landed
    __pipeline_wait_prior(0);
    out[1] = tile[1];
  }
}

constexpr int kTwelveBytesLine = __LINE__ + 3;
__global__ void twelve_bytes(const float* in) {
  __shared__ __align__(16) float tile[4];
  __pipeline_memcpy_async(tile, in, 12);
  __pipeline_commit();
  __pipeline_wait_prior(0);
}

constexpr int kMisalignedLine = __LINE__ + 3;
__global__ void misaligned(const float* in) {
  __shared__ __align__(16) float tile[8];
  __pipeline_memcpy_async(tile + 1, in, 16);
}
}  // namespace

TEST_CASE("async copy (emulator): the destination holds the copy only after the wait") {
  const std::vector<float> host = {1, 2, 3, 4};
  float* in = to_device(host);
  float* out = nullptr;
  REQUIRE(cudaMalloc(&out, 2 * sizeof(float)) == cudaSuccess);
  read_before_wait<<<1, 32>>>(in, out);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  float got[2];
  REQUIRE(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(std::isnan(got[0]));  // the poison of fresh shared memory
  CHECK(got[1] == 2.0f);
  cudaFree(in);
  cudaFree(out);
}

TEST_CASE("async copy (emulator): a 12-byte or misaligned copy is reported with its line") {
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  gpulab::emu::take_diagnostics();
  float* in = nullptr;
  REQUIRE(cudaMalloc(&in, 64 * sizeof(float)) == cudaSuccess);
  twelve_bytes<<<1, 32>>>(in);
  CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
  auto found = gpulab::emu::take_diagnostics();
  REQUIRE(found.size() >= 1);
  CHECK(found[0].kind == "async-copy");
  CHECK(found[0].kernel == "twelve_bytes");
  CHECK(found[0].line == kTwelveBytesLine);
  CHECK(found[0].message.find("copies 4, 8 or 16 bytes") != std::string::npos);

  REQUIRE(cudaDeviceReset() == cudaSuccess);
  gpulab::emu::take_diagnostics();
  REQUIRE(cudaMalloc(&in, 64 * sizeof(float)) == cudaSuccess);
  misaligned<<<1, 32>>>(in);
  CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
  found = gpulab::emu::take_diagnostics();
  REQUIRE(found.size() >= 1);
  CHECK(found[0].kind == "async-copy");
  CHECK(found[0].line == kMisalignedLine);
  CHECK(found[0].message.find("aligned") != std::string::npos);
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  gpulab::emu::take_diagnostics();
}
#endif
