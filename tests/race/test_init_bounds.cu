// Checks at the exact access: a read of a __shared__ variable (or of dynamic
// shared memory) that no thread of the block wrote is reported with the
// declaration's line and the byte offset; a read one element past a
// cudaMalloc'd array is reported with the allocation and the offset.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "race_test_support.hpp"

using namespace race_test;

constexpr int kTileLine = __LINE__ + 2;
__global__ void reads_half_written_tile(int* out) {
  __shared__ int tile[64];
  if (threadIdx.x < 32) tile[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = tile[threadIdx.x];  // threads 32-63 read what nobody wrote
}

__global__ void reads_dynamic_shared(float* out) {
  extern __shared__ float scratch[];
  if (threadIdx.x != 3) scratch[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = scratch[threadIdx.x];
}

__global__ void shift_left(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i + 1];  // one past the end for i == n - 1
}

__global__ void shared_off_by_one(int* out) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 1];  // thread 31 reads s[32]
}

TEST_CASE("a read of an unwritten __shared__ element is reported with the declaration line") {
  DeviceBuffer<int> out(128);
  take();
  reads_half_written_tile<<<2, 64>>>(out.p);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  const auto all = take();
  INFO(dump(all));
  const auto found = of_kind(all, "uninitialised-shared-read");
  REQUIRE(found.size() == 1);  // once per code location and launch
  const Diagnostic& d = found.front();
  CHECK(d.kernel == "reads_half_written_tile");
  CHECK(d.threads == "(32,0,0)");
  CHECK(d.block == "(0,0,0)");
  CHECK(contains(d.message, "thread (32,0,0) of block (0,0,0)"));
  CHECK(contains(d.message, "__shared__ variable declared at "));
  CHECK(contains(d.message, "test_init_bounds.cu:" + std::to_string(kTileLine)));
  CHECK(contains(d.message, "byte offset 128"));
  CHECK(all.size() == 1);
}

TEST_CASE("a read of unwritten dynamic shared memory is reported") {
  DeviceBuffer<float> out(32);
  take();
  reads_dynamic_shared<<<1, 32, 32 * sizeof(float)>>>(out.p);
  cudaDeviceSynchronize();
  const auto all = take();
  INFO(dump(all));
  const auto found = of_kind(all, "uninitialised-shared-read");
  REQUIRE(found.size() == 1);
  CHECK(found.front().threads == "(3,0,0)");
  CHECK(contains(found.front().message, "dynamic shared memory (extern __shared__), byte offset 12"));
}

TEST_CASE("a read one element past a cudaMalloc'd array is reported with its offset") {
  const int n = 1000;
  int* in = nullptr;
  int* out = nullptr;
  const int alloc_line = __LINE__ + 1;
  REQUIRE(cudaMalloc(&in, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&out, n * sizeof(int)) == cudaSuccess);
  cudaMemset(in, 0, n * sizeof(int));
  take();
  shift_left<<<(n + 255) / 256, 256>>>(in, out, n);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);  // a read in the slack does not fault
  const auto all = take();
  INFO(dump(all));
  const auto found = of_kind(all, "out-of-bounds-read");
  REQUIRE(found.size() == 1);
  const Diagnostic& d = found.front();
  CHECK(d.kernel == "shift_left");
  CHECK(d.block == "(3,0,0)");
  CHECK(d.threads == "(231,0,0)");
  CHECK(contains(d.message, "reads 4 bytes at byte offset 4000 (element 1000 of 4-byte elements) of the "
                            "4000-byte allocation made by cudaMalloc at "));
  CHECK(contains(d.message, "test_init_bounds.cu:" + std::to_string(alloc_line)));
  CHECK(contains(d.message, "4 bytes past its end"));
  cudaFree(in);
  cudaFree(out);
}

TEST_CASE("a write one element past a cudaMalloc'd array is reported at the access") {
  const int n = 100;
  int* in = nullptr;
  REQUIRE(cudaMalloc(&in, n * sizeof(int)) == cudaSuccess);
  take();
  // shift_left with the roles swapped: out = in, so thread 99 stores out[99] only; use an offset pointer.
  shift_left<<<1, n>>>(in, in + 1, n);  // writes in[1..100]: in[100] is past the end
  cudaDeviceSynchronize();
  const auto all = take();
  INFO(dump(all));
  const auto found = of_kind(all, "out-of-bounds");
  REQUIRE(!found.empty());
  CHECK(contains(found.front().message, "thread (99,0,0) of block (0,0,0) writes 4 bytes at byte offset 400"));
  cudaFree(in);
  cudaDeviceReset();  // the guard check's cudaErrorIllegalAddress is sticky
}

TEST_CASE("a read past the block's last __shared__ array is reported as out of bounds") {
  DeviceBuffer<int> out(32);
  take();
  shared_off_by_one<<<1, 32>>>(out.p);
  cudaDeviceSynchronize();
  const auto all = take();
  INFO(dump(all));
  // s[32] lies past every shared variable of the block: out of bounds of its shared memory.
  const auto found = of_kind(all, "out-of-bounds-read");
  REQUIRE(found.size() == 1);
  CHECK(contains(found.front().message, "thread (31,0,0) of block (0,0,0) reads 4 bytes at byte offset 128 of "
                                        "the block's shared memory"));
}
