// Race check on Kogge–Stone scans: updating the shared array in place, with
// one barrier per step, reads and writes the same array in one barrier
// interval and is reported; double buffering, or a second barrier between
// each step's read and its write, is not.
#include <catch2/catch.hpp>

#include <vector>

#include "race_test_support.hpp"

using namespace race_test;

constexpr int kBlock = 128;

__global__ void scan_in_place(const float* in, float* out, int n) {
  __shared__ float s[kBlock];
  const int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0.0f;
  for (int stride = 1; stride < blockDim.x; stride *= 2) {
    __syncthreads();
    if (t >= stride) s[t] += s[t - stride];
  }
  if (i < n) out[i] = s[t];
}

__global__ void scan_double_buffered(const float* in, float* out, int n) {
  __shared__ float buf[2][kBlock];
  const int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  int pout = 0, pin = 1;
  buf[pout][t] = i < n ? in[i] : 0.0f;
  for (int stride = 1; stride < blockDim.x; stride *= 2) {
    __syncthreads();
    pout = 1 - pout;
    pin = 1 - pout;
    buf[pout][t] = buf[pin][t] + (t >= stride ? buf[pin][t - stride] : 0.0f);
  }
  if (i < n) out[i] = buf[pout][t];
}

__global__ void scan_two_barriers(const float* in, float* out, int n) {
  __shared__ float s[kBlock];
  const int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0.0f;
  for (int stride = 1; stride < blockDim.x; stride *= 2) {
    __syncthreads();
    const float add = t >= stride ? s[t - stride] : 0.0f;
    __syncthreads();
    s[t] += add;
  }
  if (i < n) out[i] = s[t];
}

namespace {
const int n = 1000;

template <class Launch>
std::vector<float> run(Launch launch) {
  DeviceBuffer<float> in(std::vector<float>(n, 1.0f));
  DeviceBuffer<float> out(n);
  launch(in.p, out.p);
  cudaDeviceSynchronize();
  return out.to_host(n);
}

bool scans_ones_per_block(const std::vector<float>& r) {
  for (int i = 0; i < n; ++i) {
    if (r[i] != static_cast<float>(i % kBlock + 1)) return false;
  }
  return true;
}
}  // namespace

TEST_CASE("a Kogge-Stone scan updating its shared array in place is reported") {
  take();
  run([](const float* in, float* out) { scan_in_place<<<(n + kBlock - 1) / kBlock, kBlock>>>(in, out, n); });
  const auto all = take();
  INFO(dump(all));
  const auto races = of_kind(all, "data-race");
  REQUIRE(!races.empty());
  CHECK(races.front().kernel == "scan_in_place");
  CHECK(contains(races.front().message, "test_scan.cu:16"));
  CHECK(contains(races.front().message, "after the __syncthreads() on line 20"));
  CHECK(of_kind(all, "uninitialised-shared-read").empty());
}

TEST_CASE("a double-buffered Kogge-Stone scan is not reported") {
  take();
  const auto r = run([](const float* in, float* out) {
    scan_double_buffered<<<(n + kBlock - 1) / kBlock, kBlock>>>(in, out, n);
  });
  CHECK(scans_ones_per_block(r));
  const auto all = take();
  INFO(dump(all));
  CHECK(all.empty());
}

TEST_CASE("a Kogge-Stone scan with a barrier between each step's read and write is not reported") {
  take();
  const auto r = run([](const float* in, float* out) {
    scan_two_barriers<<<(n + kBlock - 1) / kBlock, kBlock>>>(in, out, n);
  });
  CHECK(scans_ones_per_block(r));
  const auto all = take();
  INFO(dump(all));
  CHECK(all.empty());
}
