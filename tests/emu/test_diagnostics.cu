// Diagnostics: each finding of the emulator, triggered by a small faulty kernel,
// with its kind, location and message checked through take_diagnostics():
// barrier divergence (an early return before __syncthreads, two different
// __syncthreads lines in an if/else), a warp collective that cannot complete
// (half the warp returned, "warp-deadlock"), a mask without the calling lane
// and a shuffle from a lane outside the mask ("warp-misuse"), out-of-bounds
// writes (past a 256-byte-multiple allocation: a fault at once; past a
// 1000003-float allocation and 5 elements before the start: the guard check
// after the kernel), too much static shared memory, a null-pointer write and a
// stack overflow, __trap(); and the CUDA error state around them (kernel errors surface
// at the next synchronising call, cudaDeviceReset clears them).
// Every TEST_CASE starts with cudaDeviceReset() so that a previous sticky error
// does not leak into it when the tests run in one process.
// The watchdog ends the process, so it is a separate CTest (programs/spin_forever.cu).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "diagnostics_after.cuh"
#include "gpulab/emu/diagnostics_api.hpp"

using gpulab::emu::Diagnostic;

namespace {

// A fresh device: no sticky error, no allocations, no diagnostics.
void fresh_device() {
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  gpulab::emu::take_diagnostics();
  REQUIRE(cudaGetLastError() == cudaSuccess);
}


// The single diagnostic the faulty launch produced.
Diagnostic single_diagnostic() {
  const std::vector<Diagnostic> all = gpulab::emu::take_diagnostics();
  for (const Diagnostic& d : all) UNSCOPED_INFO("diagnostic [" << d.kind << "]: " << d.message);
  REQUIRE(all.size() == 1);
  return all[0];
}

// Kernel errors surface at the next synchronising call and then stick, as on a GPU
// (tests/gpu/expected/probe_runtime_codes.txt): cudaGetLastError reports the error
// once, every later call that can fail keeps returning it.
void check_sticky(cudaError_t code) {
  CHECK(cudaDeviceSynchronize() == code);
  CHECK(cudaGetLastError() == code);
  CHECK(cudaGetLastError() == cudaSuccess);
  void* p = nullptr;
  CHECK(cudaMalloc(&p, 16) == code);
  CHECK(cudaDeviceSynchronize() == code);
}

__device__ int device_value;

__global__ void set_host_flag(int* flag) { *flag = 1; }

__global__ void write_index(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x; }

constexpr int kEarlyExitBarrierLine = __LINE__ + 3;
__global__ void early_exit_before_barrier(float* out) {
  if (blockIdx.x == 2 && threadIdx.x >= 40) return;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

// One thread asks the runtime something without waiting (thread 5: __activemask), one waits
// at a barrier nobody else reaches (thread 40); every other thread returns at once. The
// emulator runs the others as plain calls and counts them as exited in batches.
constexpr int kLoneBarrierLine = __LINE__ + 4;
__global__ void lone_barrier_after_a_question(unsigned* out) {
  if (threadIdx.x == 5) out[blockIdx.x] = __activemask();
  if (threadIdx.x == 40) {
    __syncthreads();
  }
}

constexpr int kIfElseBase = __LINE__;
__global__ void barriers_in_if_else(int* out) {
  if (threadIdx.x < 32) {
    __syncthreads();  // kIfElseBase + 3
  } else {
    __syncthreads();  // kIfElseBase + 5
  }
  out[threadIdx.x] = 1;
}

constexpr int kHalfWarpShuffleLine = __LINE__ + 3;
__global__ void shuffle_after_half_warp_returned(int* out) {
  if (threadIdx.x >= 16) return;
  const int v = __shfl_sync(0xffffffffu, static_cast<int>(threadIdx.x), 0);
  out[threadIdx.x] = v;
}

constexpr int kForeignMaskLine = __LINE__ + 2;
__global__ void mask_without_own_lane(unsigned* out) {
  out[threadIdx.x] = __ballot_sync(0x1u, 1);  // only lane 0 names itself
}

constexpr int kOutsideMaskLine = __LINE__ + 3;
__global__ void shuffle_from_outside_mask(int* out) {
  if (threadIdx.x < 16) {
    out[threadIdx.x] = __shfl_sync(0x0000ffffu, static_cast<int>(threadIdx.x), 20);
  }
}

__global__ void off_by_one(float* a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) a[i] = 1.0f;  // the bug: <= instead of <
}

__global__ void off_by_one_grid_stride(float* a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += gridDim.x * blockDim.x) a[i] = 1.0f;
}

__global__ void shifted_write(float* a, int shift) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i - shift] = 2.0f;  // a halo that starts before the array
}

__global__ void too_much_shared(float* out) {
  __shared__ float big[20000];  // 80000 bytes, more than the 48 KiB a block may use
  big[threadIdx.x] = static_cast<float>(threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = big[(threadIdx.x + 1) % 32];
}

__global__ void write_through_null(int* a) { a[threadIdx.x] = 7; }

__global__ void huge_local_array(int* out) {
  volatile int local[25600];  // 100 KiB of locals in one thread
  for (int i = 0; i < 25600; ++i) local[i] = i * static_cast<int>(threadIdx.x);
  out[threadIdx.x] = local[(threadIdx.x * 7919) % 25600];
}

}  // namespace

TEST_CASE("barrier divergence: threads that returned before __syncthreads") {
  fresh_device();
  float* out = nullptr;
  REQUIRE(cudaMalloc(&out, 4 * 64 * sizeof(float)) == cudaSuccess);
  const int launch_line = __LINE__ + 1;
  early_exit_before_barrier<<<4, 64>>>(out);
  const Diagnostic d = single_diagnostic();
  INFO("message: " << d.message);
  CHECK(d.kind == "barrier-divergence");
  CHECK(d.severity == "error");
  CHECK(d.kernel == "early_exit_before_barrier");
  CHECK(d.block == "(2,0,0)");
  CHECK(d.line == kEarlyExitBarrierLine);
  CHECK(has(d.message, "'early_exit_before_barrier'"));
  CHECK(has(d.message, "test_diagnostics.cu:" + std::to_string(launch_line)));
  CHECK(has(d.message, "block (2,0,0)"));
  CHECK(has(d.message, "threads 0-39 wait at __syncthreads() on line " + std::to_string(kEarlyExitBarrierLine)));
  CHECK(has(d.message, "threads 40-63 have already exited"));
  check_sticky(cudaErrorLaunchFailure);
}

TEST_CASE("barrier divergence: one thread at a barrier, the others exited around a thread that asked") {
  fresh_device();
  unsigned* out = nullptr;
  REQUIRE(cudaMalloc(&out, sizeof(unsigned)) == cudaSuccess);
  lone_barrier_after_a_question<<<1, 64>>>(out);
  const Diagnostic d = single_diagnostic();
  INFO("message: " << d.message);
  CHECK(d.kind == "barrier-divergence");
  CHECK(d.line == kLoneBarrierLine);
  CHECK(has(d.message, "thread 40 waits at __syncthreads() on line " + std::to_string(kLoneBarrierLine)));
  CHECK(has(d.message, "threads 0-39, 41-63 have already exited"));
  check_sticky(cudaErrorLaunchFailure);
}

TEST_CASE("barrier divergence: different __syncthreads() lines in an if/else") {
  fresh_device();
  int* out = nullptr;
  REQUIRE(cudaMalloc(&out, 64 * sizeof(int)) == cudaSuccess);
  barriers_in_if_else<<<1, 64>>>(out);
  const Diagnostic d = single_diagnostic();
  INFO("message: " << d.message);
  CHECK(d.kind == "barrier-divergence");
  CHECK(d.kernel == "barriers_in_if_else");
  CHECK(d.block == "(0,0,0)");
  CHECK(has(d.message, "threads 0-31 wait at __syncthreads() on line " + std::to_string(kIfElseBase + 3)));
  CHECK(has(d.message, "threads 32-63 wait at __syncthreads() on line " + std::to_string(kIfElseBase + 5)));
  CHECK(!has(d.message, "exited"));
  check_sticky(cudaErrorLaunchFailure);
}

TEST_CASE("warp deadlock: __shfl_sync(0xffffffff) after half the warp returned") {
  fresh_device();
  int* out = nullptr;
  REQUIRE(cudaMalloc(&out, 32 * sizeof(int)) == cudaSuccess);
  shuffle_after_half_warp_returned<<<1, 32>>>(out);
  const Diagnostic d = single_diagnostic();
  INFO("message: " << d.message);
  CHECK(d.kind == "warp-deadlock");
  CHECK(d.kernel == "shuffle_after_half_warp_returned");
  CHECK(d.block == "(0,0,0)");
  CHECK(d.line == kHalfWarpShuffleLine);
  CHECK(has(d.message, "threads 0-15 wait at __shfl_sync on line " + std::to_string(kHalfWarpShuffleLine)));
  CHECK(has(d.message, "threads 16-31 have already exited"));
  check_sticky(cudaErrorLaunchFailure);
}

TEST_CASE("warp misuse: a mask that does not include the calling lane") {
  fresh_device();
  unsigned* out = nullptr;
  REQUIRE(cudaMalloc(&out, 32 * sizeof(unsigned)) == cudaSuccess);
  mask_without_own_lane<<<1, 32>>>(out);
  const Diagnostic d = single_diagnostic();
  INFO("message: " << d.message);
  CHECK(d.kind == "warp-misuse");
  CHECK(d.kernel == "mask_without_own_lane");
  CHECK(d.block == "(0,0,0)");
  CHECK(d.threads == "(1,0,0)");
  CHECK(d.line == kForeignMaskLine);
  CHECK(has(d.message, "__ballot_sync on line " + std::to_string(kForeignMaskLine)));
  CHECK(has(d.message, "0x00000001 does not include the calling lane 1"));
  check_sticky(cudaErrorLaunchFailure);
}

constexpr int kTrapLine = __LINE__ + 2;
__global__ void trap_in_thread_5() {
  if (threadIdx.x == 5) __trap();
}

TEST_CASE("trap: __trap() ends the kernel with an error naming its line, block and thread") {
  fresh_device();
  trap_in_thread_5<<<1, 32>>>();
  const Diagnostic d = single_diagnostic();
  INFO("message: " << d.message);
  CHECK(d.kind == "trap");
  CHECK(d.kernel == "trap_in_thread_5");
  CHECK(d.block == "(0,0,0)");
  CHECK(d.threads == "(5,0,0)");
  CHECK(d.line == kTrapLine);
  CHECK(has(d.message, "__trap() on line " + std::to_string(kTrapLine)));
  check_sticky(cudaErrorLaunchFailure);
}

TEST_CASE("warp misuse: a shuffle that reads a lane outside the mask") {
  fresh_device();
  int* out = nullptr;
  REQUIRE(cudaMalloc(&out, 32 * sizeof(int)) == cudaSuccess);
  shuffle_from_outside_mask<<<1, 32>>>(out);
  const Diagnostic d = single_diagnostic();
  INFO("message: " << d.message);
  CHECK(d.kind == "warp-misuse");
  CHECK(d.kernel == "shuffle_from_outside_mask");
  CHECK(d.line == kOutsideMaskLine);
  CHECK(has(d.message, "reads lane 20, which is not in the mask 0x0000ffff"));
  check_sticky(cudaErrorLaunchFailure);
}

TEST_CASE("out of bounds: one element past a 4096-byte allocation faults at once") {
  fresh_device();
  const int n = 1024;
  float* a = nullptr;
  const int malloc_line = __LINE__ + 1;
  REQUIRE(cudaMalloc(&a, n * sizeof(float)) == cudaSuccess);
  off_by_one<<<(n + 255) / 256 + 1, 256>>>(a, n);
  const Diagnostic d = single_diagnostic();
  INFO("message: " << d.message);
  CHECK(d.kind == "out-of-bounds");
  CHECK(d.kernel == "off_by_one");
  CHECK(d.block == "(4,0,0)");
  CHECK(d.threads == "(0,0,0)");
  CHECK(has(d.message, "out-of-bounds write 0 bytes past the end of the 4096-byte allocation made by cudaMalloc at"));
  CHECK(has(d.message, "test_diagnostics.cu:" + std::to_string(malloc_line)));
  CHECK(has(d.message, "byte offset 4096"));
  CHECK(has(d.message, "'off_by_one'"));
  CHECK(has(d.message, "block (4,0,0), thread (0,0,0)"));
  check_sticky(cudaErrorIllegalAddress);
}

TEST_CASE("out of bounds: one element past a 1000003-float allocation is found after the kernel") {
  fresh_device();
  const int n = 1000003;
  float* a = nullptr;
  const int malloc_line = __LINE__ + 1;
  REQUIRE(cudaMalloc(&a, n * sizeof(float)) == cudaSuccess);
  const int launch_line = __LINE__ + 1;
  off_by_one_grid_stride<<<64, 256>>>(a, n);
  const Diagnostic d = single_diagnostic();
  INFO("message: " << d.message);
  CHECK(d.kind == "out-of-bounds");
  CHECK(d.kernel == "off_by_one_grid_stride");
  CHECK(d.line == launch_line);
  CHECK(has(d.message, "out-of-bounds write in kernel 'off_by_one_grid_stride' launched at"));
  CHECK(has(d.message, "bytes 0 to 3 past the end of the 4000012-byte allocation made by cudaMalloc at"));
  CHECK(has(d.message, "test_diagnostics.cu:" + std::to_string(malloc_line)));
  check_sticky(cudaErrorIllegalAddress);
}

TEST_CASE("out of bounds: a write 5 elements before the start of an allocation") {
  fresh_device();
  float* a = nullptr;
  const int malloc_line = __LINE__ + 1;
  REQUIRE(cudaMalloc(&a, 1024 * sizeof(float)) == cudaSuccess);
  shifted_write<<<1, 64>>>(a, 5);
  const Diagnostic d = single_diagnostic();
  INFO("message: " << d.message);
  CHECK(d.kind == "out-of-bounds");
  CHECK(d.kernel == "shifted_write");
  CHECK(has(d.message, "20 bytes before the start of the 4096-byte allocation made by cudaMalloc at"));
  CHECK(has(d.message, "test_diagnostics.cu:" + std::to_string(malloc_line)));
  check_sticky(cudaErrorIllegalAddress);
}

TEST_CASE("shared-memory limit: an 80000-byte __shared__ array") {
  fresh_device();
  float* out = nullptr;
  REQUIRE(cudaMalloc(&out, 32 * sizeof(float)) == cudaSuccess);
  too_much_shared<<<1, 32>>>(out);
  const Diagnostic d = single_diagnostic();
  INFO("message: " << d.message);
  CHECK(d.kind == "shared-memory-limit");
  CHECK(d.kernel == "too_much_shared");
  CHECK(has(d.message, "'too_much_shared'"));
  CHECK(has(d.message, "80000 bytes"));
  CHECK(has(d.message, "49152"));
  // nvcc rejects this kernel (ptxas: "uses too much shared data (0x13880 bytes, 0xc000 max)"); the emulator
  // finds it at run time and answers as for a launch that asks too much.
  check_sticky(cudaErrorLaunchOutOfResources);
}

TEST_CASE("a write through a null pointer") {
  fresh_device();
  write_through_null<<<1, 32>>>(nullptr);
  CHECK(cudaGetLastError() == cudaSuccess);  // the launch itself is fine; the fault shows at synchronisation
  const Diagnostic d = single_diagnostic();
  INFO("message: " << d.message);
  CHECK(d.kind == "out-of-bounds");
  CHECK(d.kernel == "write_through_null");
  CHECK(d.threads == "(0,0,0)");
  CHECK(has(d.message, "illegal write at address 0"));
  CHECK(has(d.message, "null"));
  check_sticky(cudaErrorIllegalAddress);
}

TEST_CASE("a stack overflow: 100 KiB of local array in a kernel") {
  fresh_device();
  int* out = nullptr;
  REQUIRE(cudaMalloc(&out, 32 * sizeof(int)) == cudaSuccess);
  huge_local_array<<<1, 32>>>(out);
  const Diagnostic d = single_diagnostic();
  INFO("message: " << d.message);
  CHECK(d.kind == "stack-overflow");
  CHECK(d.kernel == "huge_local_array");
  CHECK(d.threads == "(0,0,0)");
  CHECK(has(d.message, "stack overflow"));
  check_sticky(cudaErrorIllegalAddress);
}

TEST_CASE("cudaDeviceReset clears the sticky error and the last error") {
  fresh_device();
  write_through_null<<<1, 1>>>(nullptr);
  REQUIRE(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
  REQUIRE(cudaPeekAtLastError() == cudaErrorIllegalAddress);
  CHECK(cudaDeviceReset() == cudaSuccess);
  CHECK(cudaPeekAtLastError() == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, 64 * sizeof(int)) == cudaSuccess);
  write_index<<<2, 32>>>(d);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<int> h(64);
  REQUIRE(cudaMemcpy(h.data(), d, 64 * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < 64; ++i) CHECK(h[i] == i % 32);
  cudaFree(d);
  gpulab::emu::take_diagnostics();
}

TEST_CASE("after a faulty kernel nothing else runs, and every call returns the error, until cudaDeviceReset") {
  fresh_device();
  int* host_flag = nullptr;
  REQUIRE(cudaMallocHost(&host_flag, sizeof(int)) == cudaSuccess);
  *host_flag = 0;
  write_through_null<<<1, 1>>>(nullptr);
  set_host_flag<<<1, 1>>>(host_flag);  // queued behind the faulty kernel: never runs
  CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
  CHECK(*host_flag == 0);
  CHECK(gpulab::emu::take_diagnostics().size() == 1);
  // Symbol copies fail too: an H100 with CUDA 13 answers 700 to both.
  int h = -1;
  CHECK(cudaMemcpyFromSymbol(&h, device_value, sizeof(int)) == cudaErrorIllegalAddress);
  CHECK(cudaMemcpyToSymbol(device_value, &h, sizeof(int)) == cudaErrorIllegalAddress);
  CHECK(cudaDeviceReset() == cudaSuccess);
  set_host_flag<<<1, 1>>>(host_flag);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(*host_flag == 1);
  cudaFreeHost(host_flag);
}
