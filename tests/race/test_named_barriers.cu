// Race check with named barriers: shared memory handed over through a barrier of part of the
// block (__barrier_sync_count), between two groups of warps each on its own barrier, and from a
// producer warp to a consumer warp through bar.arrive / bar.sync, is not reported; reading a
// neighbour's value without the group's barrier is.
#include <catch2/catch.hpp>

#include <vector>

#include "race_test_support.hpp"

using namespace race_test;

// Warps 0-1 and 2-3 each exchange values within their group of 64 threads.
__global__ void group_exchange(int* out, bool synchronise) {
  __shared__ int values[128];
  const int t = threadIdx.x, group = t / 64;
  values[t] = t * 3;
  if (synchronise) __barrier_sync_count(1 + group, 64);
  out[blockIdx.x * 128 + t] = values[group * 64 + (t + 1) % 64];
}

__device__ void ptx_arrive(unsigned id) { asm volatile("bar.arrive %0, 64;" ::"r"(id) : "memory"); }
__device__ void ptx_sync(unsigned id) { asm volatile("bar.sync %0, 64;" ::"r"(id) : "memory"); }

// Warp 0 fills a buffer, warp 1 reads it: barrier 1 says full, barrier 2 says empty again.
__global__ void producer_consumer(const int* in, int* out) {
  __shared__ int buffer[32];
  const int lane = threadIdx.x % 32;
  for (int c = 0; c < 4; ++c) {
    if (threadIdx.x < 32) {
      if (c > 0) ptx_sync(2);
      buffer[lane] = in[32 * c + lane];
      ptx_arrive(1);
    } else {
      ptx_sync(1);
      out[128 * blockIdx.x + 32 * c + lane] = buffer[31 - lane];
      if (c < 3) ptx_arrive(2);
    }
  }
}

TEST_CASE("shared memory handed over by named barriers is not reported") {
  take();
  DeviceBuffer<int> out(256);
  group_exchange<<<2, 128>>>(out.p, true);
  cudaDeviceSynchronize();
  const auto h = out.to_host(256);
  for (int i = 0; i < 256; ++i) {
    const int t = i % 128;
    CHECK(h[i] == (t / 64 * 64 + (t + 1) % 64) * 3);
  }
  std::vector<int> counting(128);
  for (int i = 0; i < 128; ++i) counting[i] = i;
  DeviceBuffer<int> in(counting), out2(256);
  producer_consumer<<<2, 64>>>(in.p, out2.p);
  cudaDeviceSynchronize();
  const auto h2 = out2.to_host(256);
  for (int i = 0; i < 256; ++i) CHECK(h2[i] == i % 128 / 32 * 32 + 31 - i % 32);
  const auto all = take();
  INFO(dump(all));
  CHECK(all.empty());
}

TEST_CASE("reading a neighbour's value without the group's named barrier is reported") {
  take();
  DeviceBuffer<int> out(128);
  group_exchange<<<1, 128>>>(out.p, false);
  cudaDeviceSynchronize();
  const auto all = take();
  INFO(dump(all));
  const auto races = of_kind(all, "data-race");
  REQUIRE(!races.empty());
  CHECK(races.front().kernel == "group_exchange");
}
