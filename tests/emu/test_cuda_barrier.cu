// Conformance: cuda::barrier<cuda::thread_scope_block> (<cuda/barrier>).
// arrive_and_wait in place of __syncthreads over many phases; a split
// arrive/wait with work between them; a producer warp and a consumer warp
// handing buffers over with two barriers; arrive_and_drop (later phases need
// fewer arrivals); a completion function run once per phase before anyone
// is released; cuda::memcpy_async tracked by a barrier, issued by a whole
// block and per thread with cuda::aligned_size_t. Plain CUDA: these cases
// build with nvcc and pass on a GPU.
// Emulator only (#ifdef GPULAB_EMULATOR): a copy tracked by a barrier lands
// when the phase completes (reading earlier shows the poison of fresh shared
// memory); a barrier that expects more threads than arrive is reported as a
// barrier-deadlock with the waiting line; a barrier used before init() and
// more arrivals than expected are reported with the line.
#ifdef __CUDACC__
// libcu++'s barrier has a constructor; a __shared__ one is set up with init(), as the CUDA guide does.
#pragma nv_diag_suppress static_var_with_dynamic_init
#endif
#include <catch2/catch.hpp>
#include <cooperative_groups.h>
#include <cuda/barrier>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "device_array.cuh"

#ifdef GPULAB_EMULATOR
#include "diagnostics_after.cuh"
#include "gpulab/emu/diagnostics_api.hpp"
#endif

namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

// Each round every thread reads its neighbour's value and adds its own rank.
__global__ void neighbour_rounds(int* out, int rounds) {
  __shared__ block_barrier bar;
  __shared__ int values[128];
  const int t = threadIdx.x, n = blockDim.x;
  if (t == 0) init(&bar, n);
  __syncthreads();
  values[t] = t;
  for (int r = 0; r < rounds; ++r) {
    bar.arrive_and_wait();
    const int next = values[(t + 1) % n] + t;
    bar.arrive_and_wait();
    values[t] = next;
  }
  out[t] = values[t];
}

TEST_CASE("cuda::barrier: arrive_and_wait separates phases like __syncthreads") {
  const int n = 128, rounds = 5;
  DeviceArray<int> out(n);
  neighbour_rounds<<<3, n>>>(out.p, rounds);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<int> v(n);
  for (int t = 0; t < n; ++t) v[t] = t;
  for (int r = 0; r < rounds; ++r) {
    std::vector<int> next(n);
    for (int t = 0; t < n; ++t) next[t] = v[(t + 1) % n] + t;
    v = next;
  }
  CHECK(out.host() == v);
}

// Split arrive and wait: the work between them touches only the thread's own data.
__global__ void split_phase(const int* in, int* out) {
  __shared__ block_barrier bar;
  __shared__ int shared[64];
  const int t = threadIdx.x;
  if (t == 0) init(&bar, blockDim.x);
  __syncthreads();
  shared[t] = in[t] * 2;
  block_barrier::arrival_token token = bar.arrive();
  int own = in[t] + 1;  // independent work while others arrive
  bar.wait(std::move(token));
  out[t] = shared[63 - t] + own;
}

TEST_CASE("cuda::barrier: split arrive and wait with a token") {
  std::vector<int> in(64);
  for (int i = 0; i < 64; ++i) in[i] = i * i - 7;
  DeviceArray<int> d_in(in), out(64);
  split_phase<<<1, 64>>>(d_in.p, out.p);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const auto h = out.host();
  for (int t = 0; t < 64; ++t) CHECK(h[t] == in[63 - t] * 2 + in[t] + 1);
}

// Warp 0 produces chunks into two buffers, warp 1 consumes them: `filled[b]`
// completes when a chunk is in buffer b, `ready[b]` when b may be refilled.
__global__ void producer_consumer(const int* in, int chunks, int* out) {
  __shared__ block_barrier ready[2];
  __shared__ block_barrier filled[2];
  __shared__ int buffer[2][32];
  const int t = threadIdx.x, lane = t % 32;
  if (t < 2) {
    init(&ready[t], 64);
    init(&filled[t], 64);
  }
  __syncthreads();
  if (t < 32) {
    for (int c = 0; c < chunks; ++c) {
      const int b = c % 2;
      ready[b].arrive_and_wait();  // the consumers are done with b
      buffer[b][lane] = in[c * 32 + lane];
      (void)filled[b].arrive();
    }
  } else {
    (void)ready[0].arrive();  // both buffers start empty
    (void)ready[1].arrive();
    for (int c = 0; c < chunks; ++c) {
      const int b = c % 2;
      filled[b].arrive_and_wait();
      out[c * 32 + lane] = buffer[b][31 - lane] * 10;
      if (c + 2 < chunks) (void)ready[b].arrive();
    }
  }
}

TEST_CASE("cuda::barrier: a producer warp and a consumer warp share two buffers") {
  const int chunks = 9;
  std::vector<int> in(chunks * 32);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i * 3 + 1);
  DeviceArray<int> d_in(in), out(in.size());
  producer_consumer<<<2, 64>>>(d_in.p, chunks, out.p);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const auto h = out.host();
  for (int c = 0; c < chunks; ++c) {
    for (int lane = 0; lane < 32; ++lane) CHECK(h[c * 32 + lane] == in[c * 32 + 31 - lane] * 10);
  }
}

// Counts the phases: runs once per phase, after the last arrival and before anyone continues.
struct CountPhases {
  int* counter;
  __device__ void operator()() noexcept { ++*counter; }
};

__global__ void drop_and_complete(int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block, CountPhases> bar;
  __shared__ int phases;
  const int t = threadIdx.x;
  if (t == 0) {
    phases = 0;
    init(&bar, blockDim.x, CountPhases{&phases});
  }
  __syncthreads();
  bar.arrive_and_wait();
  out[t] = phases;  // 1 for everyone
  if (t >= 40) {
    bar.arrive_and_drop();  // phase 2 completes, and the next phases expect only 40
    return;
  }
  bar.arrive_and_wait();
  bar.arrive_and_wait();
  bar.arrive_and_wait();
  out[64 + t] = phases;  // 4
}

TEST_CASE("cuda::barrier: arrive_and_drop and a completion function") {
  DeviceArray<int> out(128);
  drop_and_complete<<<2, 64>>>(out.p);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const auto h = out.host();
  for (int t = 0; t < 64; ++t) {
    INFO("thread " << t);
    CHECK(h[t] == 1);
    CHECK(h[64 + t] == (t < 40 ? 4 : 0));
  }
}

// Stages a 256-float window: once by the whole block (one collective copy),
// once per thread (16 bytes each); the barrier's phase covers both.
__global__ void stage_with_barrier(const float* in, float* out) {
  __shared__ block_barrier bar;
  __shared__ __align__(16) float whole[256];
  __shared__ __align__(16) float parts[256];
  cg::thread_block block = cg::this_thread_block();
  const int t = threadIdx.x;
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, whole, in + 256 * blockIdx.x, sizeof(float) * 256, bar);
  cuda::memcpy_async(parts + 4 * t, in + 256 * blockIdx.x + 4 * t, cuda::aligned_size_t<16>(sizeof(float) * 4), bar);
  bar.arrive_and_wait();
  for (int i = t; i < 256; i += blockDim.x) out[256 * blockIdx.x + i] = whole[255 - i] + parts[i] * 1000.0f;
}

TEST_CASE("cuda::memcpy_async with a barrier: block-wide and per-thread copies") {
  std::vector<float> in(512);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i) * 0.5f;
  DeviceArray<float> d_in(in), out(512);
  stage_with_barrier<<<2, 64>>>(d_in.p, out.p);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const auto h = out.host();
  for (int b = 0; b < 2; ++b) {
    for (int i = 0; i < 256; ++i) CHECK(h[256 * b + i] == in[256 * b + 255 - i] + in[256 * b + i] * 1000.0f);
  }
}

#ifdef GPULAB_EMULATOR
using gpulab::emu::Diagnostic;

__global__ void read_before_wait(const float* in, float* out) {
  __shared__ block_barrier bar;
  __shared__ float s[32];
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(&s[threadIdx.x], &in[threadIdx.x], sizeof(float), bar);
  out[threadIdx.x] = s[threadIdx.x];  // too early: the phase cannot have completed before this thread arrives
  bar.arrive_and_wait();
  out[32 + threadIdx.x] = s[threadIdx.x];
}

TEST_CASE("emulator: a copy tracked by a barrier lands when the phase completes") {
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  gpulab::emu::take_diagnostics();
  std::vector<float> in(32, 4.5f);
  DeviceArray<float> d_in(in), out(64);
  read_before_wait<<<1, 32>>>(d_in.p, out.p);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const auto h = out.host();
  for (int t = 0; t < 32; ++t) {
    CHECK(std::isnan(h[t]));
    CHECK(h[32 + t] == 4.5f);
  }
}

constexpr int kWaitLine = __LINE__ + 6;
__global__ void too_few_arrivals(int* out) {
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x + 1);  // one more than the block has
  __syncthreads();
  out[threadIdx.x] = 1;
  bar.arrive_and_wait();
}

TEST_CASE("emulator: a barrier that can never complete is reported") {
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  gpulab::emu::take_diagnostics();
  int* out = nullptr;
  REQUIRE(cudaMalloc(&out, 64 * sizeof(int)) == cudaSuccess);
  too_few_arrivals<<<1, 64>>>(out);
  const auto all = diagnostics_after(cudaErrorLaunchFailure);
  REQUIRE(all.size() == 1);
  const Diagnostic& d = all[0];
  CHECK(d.kind == "barrier-deadlock");
  CHECK(d.line == kWaitLine);
  CHECK(has(d.message, "threads 0-63 wait at cuda::barrier::arrive_and_wait() on line " + std::to_string(kWaitLine)));
  CHECK(has(d.message, "init()"));
  REQUIRE(cudaDeviceReset() == cudaSuccess);
}

constexpr int kUninitialisedLine = __LINE__ + 3;
__global__ void never_initialised() {
  __shared__ block_barrier bar;
  bar.arrive_and_wait();
}

constexpr int kExtraArrivalLine = __LINE__ + 6;
__global__ void extra_arrival() {
  __shared__ block_barrier bar;
  if (threadIdx.x == 0) init(&bar, 2);
  __syncthreads();
  if (threadIdx.x == 0) {
    (void)bar.arrive(3);  // three arrivals at once, for a barrier of two
  }
}

TEST_CASE("emulator: misuse of a barrier names the line") {
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  gpulab::emu::take_diagnostics();
  never_initialised<<<1, 32>>>();
  auto all = diagnostics_after(cudaErrorLaunchFailure);
  REQUIRE(all.size() == 1);
  CHECK(all[0].kind == "barrier");
  CHECK(all[0].line == kUninitialisedLine);
  CHECK(has(all[0].message, "never initialised"));
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  gpulab::emu::take_diagnostics();
  extra_arrival<<<1, 32>>>();
  all = diagnostics_after(cudaErrorLaunchFailure);
  REQUIRE(all.size() == 1);
  CHECK(all[0].kind == "barrier");
  CHECK(all[0].line == kExtraArrivalLine);
  CHECK(has(all[0].message, "more arrivals than the barrier expects"));
  REQUIRE(cudaDeviceReset() == cudaSuccess);
}
#endif
