// Conformance: named barriers, the sixteen barriers of a block beside __syncthreads(): two groups
// of warps each synchronising on a barrier of its own (__barrier_sync_count), a producer warp
// and a consumer warp handing buffers over with bar.arrive / bar.sync (inline PTX), a barrier of
// every warp without a count (__barrier_sync), a block whose last warp is partial (counts are in
// whole warps), and lanes that have exited before their warp's arrival. Plain CUDA: these cases
// build with nvcc and pass on a GPU.
// Emulator only (#ifdef GPULAB_EMULATOR): misuse reported with the line: a count that is not a
// multiple of 32, an id above 15, two counts in one phase, barrier 0 over part of the block, and
// a barrier that can never complete (barrier-deadlock, the waiting threads named).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "device_array.cuh"

#ifdef GPULAB_EMULATOR
#include "diagnostics_after.cuh"
#include "gpulab/emu/diagnostics_api.hpp"
#endif

// Warps 0-3 and warps 4-7 each pass values around their own ring of 128 threads, `rounds`
// times, synchronising only among themselves (barriers 1 and 2); then the whole block meets.
__global__ void two_groups(int* out, int rounds) {
  __shared__ int ring[256];
  const int t = threadIdx.x, group = t / 128, g = t % 128;
  const unsigned id = 1 + group;
  ring[t] = t;
  __barrier_sync_count(id, 128);
  for (int r = 0; r < rounds; ++r) {
    const int next = ring[group * 128 + (g + 1) % 128] + 1;
    __barrier_sync_count(id, 128);  // everyone of the group has read
    ring[t] = next;
    __barrier_sync_count(id, 128);  // everyone of the group has written
  }
  __syncthreads();
  out[t] = ring[t] + ring[255 - t];
}

TEST_CASE("named barriers: two groups of warps synchronise apart") {
  const int rounds = 7;
  DeviceArray<int> out(256);
  two_groups<<<3, 256>>>(out.p, rounds);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<int> v(256);
  for (int t = 0; t < 256; ++t) v[t] = t;
  for (int r = 0; r < rounds; ++r) {
    std::vector<int> next(256);
    for (int t = 0; t < 256; ++t) next[t] = v[(t / 128) * 128 + (t % 128 + 1) % 128] + 1;
    v = next;
  }
  const std::vector<int> h = out.host();
  for (int t = 0; t < 256; ++t) CHECK(h[t] == v[t] + v[255 - t]);
}

__device__ void ptx_arrive(unsigned id, unsigned threads) { asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory"); }
__device__ void ptx_sync(unsigned id, unsigned threads) { asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory"); }

// Warp 0 fills two buffers in turn, warp 1 empties them: barrier 1 + b says buffer b is full
// (the producer arrives, the consumer waits), barrier 3 + b that it is empty again.
__global__ void producer_consumer(const int* in, int chunks, int* out) {
  __shared__ int buffer[2][32];
  const int lane = threadIdx.x % 32;
  if (threadIdx.x < 32) {
    for (int c = 0; c < chunks; ++c) {
      const unsigned b = c % 2;
      if (c >= 2) ptx_sync(3 + b, 64);  // the consumer has emptied b
      buffer[b][lane] = in[c * 32 + lane];
      ptx_arrive(1 + b, 64);
    }
  } else {
    for (int c = 0; c < chunks; ++c) {
      const unsigned b = c % 2;
      ptx_sync(1 + b, 64);  // b is full
      out[c * 32 + lane] = buffer[b][31 - lane] * 10;
      if (c + 2 < chunks) ptx_arrive(3 + b, 64);
    }
  }
}

TEST_CASE("named barriers: a producer warp and a consumer warp with bar.arrive and bar.sync") {
  const int chunks = 9;
  std::vector<int> in(chunks * 32);
  for (int i = 0; i < chunks * 32; ++i) in[i] = i * 3 - 50;
  DeviceArray<int> d_in(in), out(chunks * 32);
  producer_consumer<<<2, 64>>>(d_in.p, chunks, out.p);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const std::vector<int> h = out.host();
  for (int c = 0; c < chunks; ++c)
    for (int l = 0; l < 32; ++l) CHECK(h[c * 32 + l] == in[c * 32 + 31 - l] * 10);
}

// __barrier_sync(id) without a count: every warp of the block, here of 48 threads (a partial
// second warp), and a count of 64 for the same 48 threads: a barrier counts whole warps.
__global__ void whole_block(int* out) {
  __shared__ int s[48];
  const int t = threadIdx.x;
  s[t] = t * t;
  __barrier_sync(5);
  const int a = s[47 - t];
  __barrier_sync_count(6, 64);
  s[t] = a + 1;
  __barrier_sync(5);
  out[t] = s[(t + 1) % 48];
}

TEST_CASE("named barriers: every warp of a block, and a count rounded to whole warps") {
  DeviceArray<int> out(48);
  whole_block<<<2, 48>>>(out.p);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const std::vector<int> h = out.host();
  for (int t = 0; t < 48; ++t) {
    const int u = (t + 1) % 48;
    CHECK(h[t] == (47 - u) * (47 - u) + 1);
  }
}

// Lanes 16-31 of warp 1 exit first; a warp arrives once its lanes that have not exited are there.
__global__ void exited_lanes(int* out) {
  __shared__ int s[64];
  const int t = threadIdx.x;
  if (t >= 48) return;
  s[t] = t + 100;
  __barrier_sync_count(1, 64);
  out[t] = s[47 - t];
}

TEST_CASE("named barriers: lanes that have exited do not hold their warp back") {
  DeviceArray<int> out(64);
  exited_lanes<<<1, 64>>>(out.p);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const std::vector<int> h = out.host();
  for (int t = 0; t < 48; ++t) CHECK(h[t] == 47 - t + 100);
}

#ifdef GPULAB_EMULATOR
using gpulab::emu::Diagnostic;

__global__ void counted(unsigned id, unsigned threads, int* out) {
  __barrier_sync_count(id, threads);
  out[threadIdx.x] = 1;
}

__global__ void two_counts(int* out) {
  if (threadIdx.x < 64) __barrier_sync_count(1, 128);
  else __barrier_sync_count(1, 64);
  out[threadIdx.x] = 1;
}

__global__ void partial_barrier_zero(int* out) {
  if (threadIdx.x < 64) ptx_sync(0, 64);
  out[threadIdx.x] = 1;
}

__global__ void too_few_arrive(int* out) {
  if (threadIdx.x < 64) __barrier_sync_count(2, 128);  // warps 2 and 3 never come
  out[threadIdx.x] = 1;
}

// Launches `launch(out)` on a fresh context (a launch failure is sticky) and returns its diagnostics.
template <class Launch>
std::vector<Diagnostic> run_alone(Launch launch) {
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  gpulab::emu::take_diagnostics();
  int* out = nullptr;
  REQUIRE(cudaMalloc(&out, 128 * sizeof(int)) == cudaSuccess);
  launch(out);
  std::vector<Diagnostic> found = diagnostics_after(cudaErrorLaunchFailure);
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  return found;
}

TEST_CASE("emulator: named barriers misused are reported with the line") {
  std::vector<Diagnostic> found = run_alone([](int* out) { counted<<<1, 128>>>(1, 100, out); });
  REQUIRE(found.size() == 1);
  CHECK(found[0].kind == "named-barrier");
  CHECK(has(found[0].message, "__barrier_sync_count(1, 100)"));
  CHECK(has(found[0].message, "multiple of 32"));
  CHECK(found[0].line > 0);

  found = run_alone([](int* out) { counted<<<1, 128>>>(16, 128, out); });
  REQUIRE(found.size() == 1);
  CHECK(has(found[0].message, "16 named barriers"));

  found = run_alone([](int* out) { counted<<<1, 128>>>(3, 160, out); });
  REQUIRE(found.size() == 1);
  CHECK(has(found[0].message, "can never complete"));

  found = run_alone([](int* out) { two_counts<<<1, 128>>>(out); });
  REQUIRE(found.size() == 1);
  CHECK(has(found[0].message, "same count"));

  found = run_alone([](int* out) { partial_barrier_zero<<<1, 128>>>(out); });
  REQUIRE(found.size() == 1);
  CHECK(has(found[0].message, "bar.sync 0, 64"));
  CHECK(has(found[0].message, "id from 1 to 15"));
}

TEST_CASE("emulator: a named barrier that can never complete is a barrier-deadlock") {
  const std::vector<Diagnostic> found = run_alone([](int* out) { too_few_arrive<<<1, 128>>>(out); });
  REQUIRE(found.size() == 1);
  CHECK(found[0].kind == "barrier-deadlock");
  CHECK(has(found[0].message, "__barrier_sync_count(2, 128)"));
  CHECK(has(found[0].message, "threads 0-63 wait"));
  CHECK(has(found[0].message, "64-127 have already exited"));
}
#endif
