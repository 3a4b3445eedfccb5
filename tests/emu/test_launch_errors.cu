// Diagnostics: invalid launch configurations. For 2048 threads per block, a
// block of (1,1,65), grid.y = 65536, zero blocks, zero threads and 64 KiB of
// dynamic shared memory: cudaGetLastError returns the error once, the kernel
// does not run, the emulator reports a "launch-config" diagnostic naming the
// kernel and the reason, and a valid launch works afterwards.
//
// tests/emu expects CUDA 13's error codes, checked on a GPU (an H100, CUDA 13,
// tests/gpu/probe_runtime_codes.cu): every one of these launches answers
// cudaErrorInvalidValue ("invalid argument"), not the
// cudaErrorInvalidConfiguration that older documentation names.
// The diagnostics checks are emulator-only; the rest also builds with nvcc and
// passes on that H100 (CUDA 13.0, driver 580).
#include <catch2/catch.hpp>
#include <initializer_list>
#include <string>
#include <vector>
#ifdef GPULAB_EMULATOR
#include "gpulab/emu/diagnostics_api.hpp"
#endif

namespace {

constexpr cudaError_t kInvalidLaunch = cudaErrorInvalidValue;  // CUDA 13 on sm_90, see above

__global__ void set_flag(int* flag) { *flag = 1; }

__global__ void set_flag_with_shared(int* flag) {
  extern __shared__ int scratch[];
  scratch[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 0) *flag = scratch[0];
}

// 40 KiB of static shared memory beside the dynamic part: the static part counts against the
// block's 227 KiB, not against cudaFuncAttributeMaxDynamicSharedMemorySize.
__global__ void set_flag_with_both_shared(int* flag) {
  extern __shared__ int scratch[];
  __shared__ int fixed[10 * 1024];
  fixed[threadIdx.x] = 1;
  scratch[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 0) *flag = scratch[0] + fixed[31];
}

struct Flag {
  int* d = nullptr;
  Flag() {
    cudaMalloc(&d, sizeof(int));
    cudaMemset(d, 0, sizeof(int));
#ifdef GPULAB_EMULATOR
    gpulab::emu::take_diagnostics();
#endif
  }
  ~Flag() { cudaFree(d); }
  int value() const {
    int h = -1;
    cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
    return h;
  }
};

// The one diagnostic of the failed launch: kind, kernel, launch line and the words that say why.
void check_launch_diagnostic(const char* kernel, int line, std::initializer_list<const char*> words) {
#ifdef GPULAB_EMULATOR
  const std::vector<gpulab::emu::Diagnostic> all = gpulab::emu::take_diagnostics();
  REQUIRE(all.size() == 1);
  const gpulab::emu::Diagnostic& d = all[0];
  INFO("message: " << d.message);
  CHECK(d.kind == "launch-config");
  CHECK(d.severity == "error");
  CHECK(d.kernel == kernel);
  CHECK(d.line == line);
  CHECK(d.file.find("test_launch_errors.cu") != std::string::npos);
  CHECK(d.message.find(std::string("'") + kernel + "'") != std::string::npos);
  CHECK(d.message.find("did not run") != std::string::npos);
  for (const char* w : words) {
    INFO("expected in the message: " << w);
    CHECK(d.message.find(w) != std::string::npos);
  }
#else
  (void)kernel;
  (void)line;
  (void)words;
#endif
}

// After the error: nothing sticky, and a valid launch runs.
void check_recovers(Flag& flag) {
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(flag.value() == 0);  // the failed launch did not run
  set_flag<<<1, 32>>>(flag.d);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(flag.value() == 1);
}

}  // namespace

TEST_CASE("a block of 2048 threads is rejected") {
  Flag flag;
  const int line = __LINE__ + 1;
  set_flag<<<1, 2048>>>(flag.d);
  CHECK(cudaGetLastError() == kInvalidLaunch);
  check_launch_diagnostic("set_flag", line, {"(2048, 1, 1)", "2048 threads", "1024"});
  check_recovers(flag);
}

TEST_CASE("a block of (1,1,65) is rejected: z may be at most 64") {
  Flag flag;
  const int line = __LINE__ + 1;
  set_flag<<<1, dim3(1, 1, 65)>>>(flag.d);
  CHECK(cudaGetLastError() == kInvalidLaunch);
  check_launch_diagnostic("set_flag", line, {"(1, 1, 65)", "64"});
  check_recovers(flag);
}

TEST_CASE("a grid with y = 65536 is rejected") {
  Flag flag;
  const int line = __LINE__ + 1;
  set_flag<<<dim3(1, 65536), 1>>>(flag.d);
  CHECK(cudaGetLastError() == kInvalidLaunch);
  check_launch_diagnostic("set_flag", line, {"(1, 65536, 1)", "65535"});
  check_recovers(flag);
}

TEST_CASE("a launch of 0 blocks is rejected") {
  Flag flag;
  const int n = 0;
  const int line = __LINE__ + 1;
  set_flag<<<(n + 255) / 256, 256>>>(flag.d);
  CHECK(cudaGetLastError() == kInvalidLaunch);
  check_launch_diagnostic("set_flag", line, {"(0, 1, 1)", "zero"});
  check_recovers(flag);
}

TEST_CASE("a block of 0 threads is rejected") {
  Flag flag;
  const int line = __LINE__ + 1;
  set_flag<<<4, 0>>>(flag.d);
  CHECK(cudaGetLastError() == kInvalidLaunch);
  check_launch_diagnostic("set_flag", line, {"(0, 1, 1)", "zero"});
  check_recovers(flag);
}

TEST_CASE("64 KiB of dynamic shared memory is rejected without the opt-in") {
  Flag flag;
  const int line = __LINE__ + 1;
  set_flag_with_shared<<<1, 32, 64 * 1024>>>(flag.d);
  CHECK(cudaGetLastError() == kInvalidLaunch);
  check_launch_diagnostic("set_flag_with_shared", line, {"65536", "49152"});
  check_recovers(flag);

  // Exactly the limit is fine.
  cudaMemset(flag.d, 0, sizeof(int));
  set_flag_with_shared<<<1, 32, 48 * 1024>>>(flag.d);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(flag.value() == 1);
}

// Last in the file: the emulator applies the opt-in to every kernel of the process.
TEST_CASE("64 KiB of dynamic shared memory runs after cudaFuncSetAttribute(MaxDynamicSharedMemorySize)") {
  Flag flag;
  REQUIRE(cudaFuncSetAttribute(set_flag_with_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024) ==
          cudaSuccess);
  set_flag_with_shared<<<1, 32, 64 * 1024>>>(flag.d);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(flag.value() == 1);

  // 64 KiB dynamic (the attribute's limit) and 40 KiB static: 104 KiB in all, which a GPU runs.
  REQUIRE(cudaFuncSetAttribute(set_flag_with_both_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024) ==
          cudaSuccess);
  cudaMemset(flag.d, 0, sizeof(int));
  set_flag_with_both_shared<<<1, 32, 64 * 1024>>>(flag.d);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(flag.value() == 2);
}
