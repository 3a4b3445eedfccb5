// The checker's precision and its atomics: single bytes are tracked exactly
// (threads writing neighbouring bytes do not race; two writing one byte do),
// every atomic is performed and returns what CUDA specifies, host code is
// never checked, and a racy launch reports at most ten distinct races.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "race_test_support.hpp"

using namespace race_test;

__global__ void write_bytes(unsigned char* out, int stride) {
  out[threadIdx.x / stride] = static_cast<unsigned char>(threadIdx.x);
}

__global__ void take_tickets(unsigned int* counter, unsigned int* slots, float* fsum, unsigned long long* big,
                             int* maximum, unsigned int* wrapped) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned ticket = atomicAdd(counter, 1u);
  slots[ticket] = t;
  atomicAdd(fsum, 0.5f);
  atomicAdd(big, 1ull << 33);
  atomicMax(maximum, static_cast<int>(t));
  atomicInc(wrapped, 9u);
}

__global__ void cas_lock_sum(int* lock, int* sum) {
  // One thread per block takes a spin lock with atomicCAS, updates, releases with atomicExch.
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    *sum += 1;  // a plain update, ordered only by the lock: the checker sees atomics, not the lock
    __threadfence();
    atomicExch(lock, 0);
  }
}

__global__ void many_races(int* a) {
  // Twelve racy statements: every thread writes the same twelve elements.
  a[0] = 1;
  a[1] = 2;
  a[2] = 3;
  a[3] = 4;
  a[4] = 5;
  a[5] = 6;
  a[6] = 7;
  a[7] = 8;
  a[8] = 9;
  a[9] = 10;
  a[10] = 11;
  a[11] = 12;
}

TEST_CASE("threads writing neighbouring bytes do not race") {
  DeviceBuffer<unsigned char> out(64);
  take();
  write_bytes<<<1, 64>>>(out.p, 1);
  cudaDeviceSynchronize();
  const auto all = take();
  INFO(dump(all));
  CHECK(all.empty());
  const auto h = out.to_host(64);
  for (int i = 0; i < 64; ++i) CHECK(h[i] == i);
}

TEST_CASE("two threads writing the same byte race") {
  DeviceBuffer<unsigned char> out(64);
  take();
  write_bytes<<<1, 64>>>(out.p, 2);
  cudaDeviceSynchronize();
  const auto all = take();
  INFO(dump(all));
  const auto races = of_kind(all, "data-race");
#if defined(__clang__)
  // clang compiles the first thread's pass through the kernel to code of its own, and findings
  // are told apart by code address: the race of threads 2 and 3 is reported too
  // (docs/profile-agreement.md).
  REQUIRE(races.size() == 2);
#else
  REQUIRE(races.size() == 1);
#endif
  CHECK(contains(races.front().message, "thread (1,0,0) of block (0,0,0) writes global memory, byte offset 0 "));
}

TEST_CASE("atomics are performed and return the old value") {
  const int blocks = 8, threads = 128, total = blocks * threads;
  DeviceBuffer<unsigned int> counter(1), slots(total), wrapped(1);
  DeviceBuffer<float> fsum(1);
  DeviceBuffer<unsigned long long> big(1);
  DeviceBuffer<int> maximum(1);
  take();
  take_tickets<<<blocks, threads>>>(counter.p, slots.p, fsum.p, big.p, maximum.p, wrapped.p);
  cudaDeviceSynchronize();
  const auto all = take();
  INFO(dump(all));
  CHECK(all.empty());
  CHECK(counter.to_host(1)[0] == static_cast<unsigned>(total));
  auto s = slots.to_host(total);
  std::sort(s.begin(), s.end());
  for (int i = 0; i < total; ++i) CHECK(s[i] == static_cast<unsigned>(i));
  CHECK(fsum.to_host(1)[0] == total * 0.5f);
  CHECK(big.to_host(1)[0] == static_cast<unsigned long long>(total) << 33);
  CHECK(maximum.to_host(1)[0] == total - 1);
  CHECK(wrapped.to_host(1)[0] == static_cast<unsigned>(total % 10));
}

TEST_CASE("a spin lock with atomicCAS and a fence keeps its plain update quiet") {
  DeviceBuffer<int> lock(1), sum(1);
  take();
  cas_lock_sum<<<16, 32>>>(lock.p, sum.p);
  cudaDeviceSynchronize();
  const auto all = take();
  INFO(dump(all));
  CHECK(all.empty());
  CHECK(sum.to_host(1)[0] == 16);
}

TEST_CASE("host code is not checked") {
  std::vector<int> a(1000);
  for (int i = 0; i < 1000; ++i) a[i] = i;
  int* d = nullptr;
  cudaMalloc(&d, sizeof(int));
  take();
  int* host_view = a.data();
  for (int i = 1; i < 1000; ++i) host_view[i] += host_view[i - 1];
  CHECK(a[999] == 999 * 1000 / 2);
  CHECK(take().empty());
  cudaFree(d);
}

TEST_CASE("a launch reports at most ten distinct races, then a count") {
  DeviceBuffer<int> a(12);
  take();
  many_races<<<1, 64>>>(a.p);
  cudaDeviceSynchronize();
  const auto all = take();
  INFO(dump(all));
  const auto races = of_kind(all, "data-race");
  REQUIRE(races.size() == 11);
  CHECK(contains(races.back().message, "more distinct data races"));
  CHECK(contains(races.back().message, "kernel 'many_races'"));
}
