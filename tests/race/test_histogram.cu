// Race check: a histogram with plain increments of global bins is reported
// (naming the kernel and the allocation), a privatised shared-memory histogram
// with atomics is not, and the racy program still runs to the end.
#include <catch2/catch.hpp>

#include <vector>

#include "race_test_support.hpp"

using namespace race_test;

__global__ void histogram_global_racy(const unsigned char* data, unsigned int* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) bins[data[i]]++;
}

__global__ void histogram_privatised(const unsigned char* data, unsigned int* bins, int n) {
  __shared__ unsigned int local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    atomicAdd(&local[data[i]], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

namespace {
std::vector<unsigned char> bytes(int n) {
  std::vector<unsigned char> h(n);
  unsigned x = 12345;
  for (auto& c : h) {
    x = x * 1103515245u + 12345u;
    c = static_cast<unsigned char>(x >> 16);
  }
  return h;
}
}  // namespace

TEST_CASE("a histogram incrementing global bins without atomics is a data race") {
  take();
  const int n = 1 << 16;
  DeviceBuffer<unsigned char> data(bytes(n));
  DeviceBuffer<unsigned int> bins(256);
  histogram_global_racy<<<n / 256, 256>>>(data.p, bins.p, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);  // a race does not make the launch fail
  CHECK(cudaGetLastError() == cudaSuccess);
  const auto all = take();
  const auto races = of_kind(all, "data-race");
  INFO(dump(all));
  REQUIRE(!races.empty());
  CHECK(races.size() <= 10);
  const Diagnostic& d = races.front();
  CHECK(d.severity == "error");
  CHECK(d.kernel == "histogram_global_racy");
  CHECK(contains(d.message, "kernel 'histogram_global_racy'"));
  CHECK(contains(d.message, "global memory, byte offset"));
  CHECK(contains(d.message, "-byte allocation made by cudaMalloc at"));
  CHECK(contains(d.message, "test_histogram.cu"));
  CHECK(contains(d.message, "atomicAdd"));
  // The program still gets its bins (no count is lost on the emulator, where blocks run one by one).
  unsigned long long total = 0;
  for (unsigned v : bins.to_host(256)) total += v;
  CHECK(total == static_cast<unsigned long long>(n));
}

TEST_CASE("a privatised shared-memory histogram with atomics is not reported") {
  take();
  const int n = 100003;
  const auto h = bytes(n);
  DeviceBuffer<unsigned char> data(h);
  DeviceBuffer<unsigned int> bins(256);
  histogram_privatised<<<24, 128>>>(data.p, bins.p, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  const auto all = take();
  INFO(dump(all));
  CHECK(all.empty());
  std::vector<unsigned> expected(256, 0);
  for (unsigned char c : h) ++expected[c];
  CHECK(bins.to_host(256) == expected);
}
