// Race check with the synchronisation of cooperative groups and libcu++:
// shared memory handed over through cuda::barrier phases (arrive_and_wait,
// a producer warp and a consumer warp with two barriers, a completion
// function's write read after the phase), through the sync of
// a tile of 64 threads, and through a block's cuda::pipeline is not reported;
// reading a neighbour's value between arrive() and wait() is.
#ifdef __CUDACC__
// libcu++'s barrier has a constructor; a __shared__ one is set up with init(), as the CUDA guide does.
#pragma nv_diag_suppress static_var_with_dynamic_init
#endif
#include <catch2/catch.hpp>
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>

#include <utility>
#include <vector>

#include "race_test_support.hpp"

using namespace race_test;
namespace cg = cooperative_groups;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

__global__ void barrier_rounds(int* out, bool wait_before_reading) {
  __shared__ block_barrier bar;
  __shared__ int values[64];
  const int t = threadIdx.x;
  if (t == 0) init(&bar, blockDim.x);
  __syncthreads();
  values[t] = t;
  block_barrier::arrival_token token = bar.arrive();
  if (wait_before_reading) bar.wait(std::move(token));
  out[blockIdx.x * 64 + t] = values[(t + 1) % 64];
  if (!wait_before_reading) bar.wait(std::move(token));
}

__global__ void producer_consumer(const int* in, int* out) {
  __shared__ block_barrier ready, filled;
  __shared__ int buffer[32];
  const int t = threadIdx.x, lane = t % 32;
  if (t == 0) {
    init(&ready, 64);
    init(&filled, 64);
  }
  __syncthreads();
  for (int c = 0; c < 4; ++c) {
    if (t < 32) {
      ready.arrive_and_wait();
      buffer[lane] = in[32 * c + lane];
      (void)filled.arrive();
    } else {
      (void)ready.arrive();
      filled.arrive_and_wait();
      out[128 * blockIdx.x + 32 * c + lane] = buffer[31 - lane];
    }
  }
}

// A completion function writes what every thread reads after the phase.
struct Publish {
  int* counter;
  __device__ void operator()() noexcept { *counter += 1; }
};

__global__ void completion_publishes(int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block, Publish> bar;
  __shared__ int phases;
  if (threadIdx.x == 0) {
    phases = 0;
    init(&bar, blockDim.x, Publish{&phases});
  }
  __syncthreads();
  for (int k = 0; k < 3; ++k) {
    bar.arrive_and_wait();
    out[blockIdx.x * 192 + k * 64 + threadIdx.x] = phases;
  }
}

__global__ void tile_exchange(int* out) {
  __shared__ int values[128];
  cg::thread_block_tile<64> tile = cg::tiled_partition<64>(cg::this_thread_block());
  const int t = threadIdx.x;
  values[t] = t * 2;
  tile.sync();
  out[blockIdx.x * 128 + t] = values[t / 64 * 64 + (t + 1) % 64];
}

__global__ void pipeline_chunks(const int* in, int* out) {
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  __shared__ int slots[2][64];
  cg::thread_block block = cg::this_thread_block();
  cuda::pipeline<cuda::thread_scope_block> pipe = cuda::make_pipeline(block, &state);
  for (int c = 0; c < 4; ++c) {
    pipe.producer_acquire();
    cuda::memcpy_async(block, slots[c % 2], in + 64 * c, sizeof(int) * 64, pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    out[256 * blockIdx.x + 64 * c + threadIdx.x] = slots[c % 2][63 - threadIdx.x];
    pipe.consumer_release();
  }
}

std::vector<int> counting(int n) {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = i;
  return v;
}

TEST_CASE("shared memory handed over by cuda::barrier phases is not reported") {
  take();
  DeviceBuffer<int> out(128);
  barrier_rounds<<<2, 64>>>(out.p, true);
  cudaDeviceSynchronize();
  const auto h = out.to_host(128);
  for (int i = 0; i < 128; ++i) CHECK(h[i] == (i % 64 + 1) % 64);
  DeviceBuffer<int> in(counting(128)), out2(256);
  producer_consumer<<<2, 64>>>(in.p, out2.p);
  cudaDeviceSynchronize();
  const auto h2 = out2.to_host(256);
  for (int i = 0; i < 256; ++i) CHECK(h2[i] == i % 128 / 32 * 32 + 31 - i % 32);
  DeviceBuffer<int> out3(384);
  completion_publishes<<<2, 64>>>(out3.p);
  cudaDeviceSynchronize();
  const auto h3 = out3.to_host(384);
  for (int i = 0; i < 384; ++i) CHECK(h3[i] == i % 192 / 64 + 1);
  const auto all = take();
  INFO(dump(all));
  CHECK(all.empty());
}

TEST_CASE("reading a neighbour's value between arrive() and wait() is reported") {
  take();
  DeviceBuffer<int> out(64);
  barrier_rounds<<<1, 64>>>(out.p, false);
  cudaDeviceSynchronize();
  const auto all = take();
  INFO(dump(all));
  const auto races = of_kind(all, "data-race");
  REQUIRE(!races.empty());
  CHECK(races.front().kernel == "barrier_rounds");
}

TEST_CASE("a tile's sync and a block's pipeline are not reported") {
  take();
  DeviceBuffer<int> out(256);
  tile_exchange<<<2, 128>>>(out.p);
  cudaDeviceSynchronize();
  const auto h = out.to_host(256);
  for (int i = 0; i < 256; ++i) {
    const int t = i % 128;
    CHECK(h[i] == (t / 64 * 64 + (t + 1) % 64) * 2);
  }
  DeviceBuffer<int> in(counting(256)), out2(512);
  pipeline_chunks<<<2, 64>>>(in.p, out2.p);
  cudaDeviceSynchronize();
  const auto h2 = out2.to_host(512);
  for (int i = 0; i < 512; ++i) CHECK(h2[i] == i % 256 / 64 * 64 + 63 - i % 64);
  const auto all = take();
  INFO(dump(all));
  CHECK(all.empty());
}
