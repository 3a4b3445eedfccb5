// Diagnostics around the emulator's lazy fibers and grid barriers: a thread
// that exits after barrier-free work while the rest of its block waits at
// __syncthreads() (barrier divergence, with the right threads named); an
// out-of-bounds store and a fault in kernels that never synchronise; grid.sync()
// in an ordinary launch ("grid-sync"); blocks of a cooperative launch that do
// not all reach the same grid.sync(); a cooperative launch given a template
// kernel by address, which the emulator cannot call. Emulator-only: it checks
// the emulator's own reports.
#include <catch2/catch.hpp>
#include <cooperative_groups.h>
#include <string>
#include <vector>

#include "diagnostics_after.cuh"
#include "gpulab/emu/diagnostics_api.hpp"

namespace cg = cooperative_groups;
using gpulab::emu::Diagnostic;

namespace {

void fresh_device() {
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  gpulab::emu::take_diagnostics();
  REQUIRE(cudaGetLastError() == cudaSuccess);
}


Diagnostic single_diagnostic() {
  const std::vector<Diagnostic> all = gpulab::emu::take_diagnostics();
  for (const Diagnostic& d : all) UNSCOPED_INFO("diagnostic [" << d.kind << "]: " << d.message);
  REQUIRE(all.size() == 1);
  return all[0];
}

constexpr int kDivergedBarrierLine = __LINE__ + 7;
// Threads 0-15 do some work and return; threads 16-63 wait at the barrier.
__global__ void work_then_diverge(int* out) {
  int v = threadIdx.x;
  for (int i = 0; i < 100; ++i) v = (v * 5 + i) % 997;
  out[threadIdx.x] = v;
  if (threadIdx.x < 16) return;
  __syncthreads();
  out[threadIdx.x] = v + 1;
}

__global__ void store_one_past(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) out[i] = 1.0f;  // the classic off-by-one: i == n writes past the end
}

// 1024 ints: thread 0 stores the last one, thread 1 one past the end.
__global__ void store_far_past(int* out) { out[1023 + threadIdx.x] = 1; }

constexpr int kGridSyncLine = __LINE__ + 3;
__global__ void grid_sync_without_cooperative_launch(int* out) {
  out[threadIdx.x] = 1;
  cg::this_grid().sync();
  out[threadIdx.x] = 2;
}

constexpr int kSkippedGridSyncLine = __LINE__ + 3;
__global__ void grid_sync_skipped_by_block_1(int* out) {
  if (blockIdx.x == 1) return;
  cg::this_grid().sync();
  out[blockIdx.x] = 1;
}

template <int Value>
__global__ void template_kernel(int* out) {
  out[threadIdx.x] = Value;
}

}  // namespace

TEST_CASE("fast path: threads that return after barrier-free work while the others wait at __syncthreads") {
  fresh_device();
  int* d;
  REQUIRE(cudaMalloc(&d, 64 * sizeof(int)) == cudaSuccess);
  work_then_diverge<<<1, 64>>>(d);
  CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
  const Diagnostic d0 = single_diagnostic();
  CHECK(d0.kind == "barrier-divergence");
  CHECK(d0.line == kDivergedBarrierLine);
  CHECK(has(d0.message, "threads 16-63 wait at __syncthreads() on line " + std::to_string(kDivergedBarrierLine)));
  CHECK(has(d0.message, "threads 0-15 have already exited"));
  fresh_device();
}

TEST_CASE("fast path: an off-by-one store in a barrier-free kernel is found") {
  fresh_device();
  const int n = 1000003;
  float* d;
  REQUIRE(cudaMalloc(&d, n * sizeof(float)) == cudaSuccess);
  store_one_past<<<(n + 256) / 256, 256>>>(d, n);
  CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
  const Diagnostic d0 = single_diagnostic();
  CHECK(d0.kind == "out-of-bounds");
  CHECK(has(d0.message, "past the end of"));
  fresh_device();
}

TEST_CASE("fast path: a faulting store in a barrier-free kernel names its block and thread") {
  fresh_device();
  int* d;
  REQUIRE(cudaMalloc(&d, 4096) == cudaSuccess);
  store_far_past<<<1, 64>>>(d);
  CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
  const Diagnostic d0 = single_diagnostic();
  CHECK(d0.kind == "out-of-bounds");
  CHECK(d0.block == "(0,0,0)");
  CHECK(d0.threads == "(1,0,0)");  // thread 0 writes out[0], in bounds; thread 1 is the first to fault
  fresh_device();
}

TEST_CASE("grid.sync() in a kernel not launched with cudaLaunchCooperativeKernel is reported") {
  fresh_device();
  int* d;
  REQUIRE(cudaMalloc(&d, 32 * sizeof(int)) == cudaSuccess);
  grid_sync_without_cooperative_launch<<<2, 32>>>(d);
  CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
  const Diagnostic d0 = single_diagnostic();
  CHECK(d0.kind == "grid-sync");
  CHECK(d0.line == kGridSyncLine);
  CHECK(has(d0.message, "cudaLaunchCooperativeKernel"));
  CHECK(has(d0.message, "undefined"));
  fresh_device();
}

TEST_CASE("a block of a cooperative launch that skips grid.sync() is grid barrier divergence") {
  fresh_device();
  int* d;
  REQUIRE(cudaMalloc(&d, 4 * sizeof(int)) == cudaSuccess);
  void* args[] = {&d};
  REQUIRE(cudaLaunchCooperativeKernel(grid_sync_skipped_by_block_1, dim3(4), dim3(32), args) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
  const Diagnostic d0 = single_diagnostic();
  CHECK(d0.kind == "barrier-divergence");
  CHECK(d0.line == kSkippedGridSyncLine);
  CHECK(has(d0.message, "blocks (by rank) 0, 2-3 wait at grid.sync()"));
  CHECK(has(d0.message, "blocks (by rank) 1 finished without reaching it"));
  fresh_device();
}

TEST_CASE("cudaLaunchCooperativeKernel of a template kernel by address runs, an unknown address says why not") {
  fresh_device();
  int* d;
  REQUIRE(cudaMalloc(&d, 32 * sizeof(int)) == cudaSuccess);
  void* args[] = {&d};
  CHECK(cudaLaunchCooperativeKernel((void*)template_kernel<1>, dim3(1), dim3(32), args, 0, 0) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  void (*kernel)(int*) = template_kernel<2>;
  CHECK(cudaLaunchCooperativeKernel((void*)kernel, dim3(1), dim3(32), args, 0, 0) == cudaErrorInvalidDeviceFunction);
  const Diagnostic d0 = single_diagnostic();
  CHECK(d0.kind == "launch-config");
  CHECK(has(d0.message, "cudaLaunchCooperativeKernel((void*)kernel, ...)"));
  CHECK(has(d0.message, "Pass the kernel by its name"));
  CHECK(cudaLaunchCooperativeKernel(template_kernel<2>, dim3(1), dim3(32), args, 0, 0) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  fresh_device();
}
