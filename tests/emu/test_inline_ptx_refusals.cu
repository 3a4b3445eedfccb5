// Inline PTX the emulator cannot honour at run time is reported where it runs, with the
// kernel failing as on a GPU: cvta.to.shared of an address outside the block's shared memory,
// and barrier 0 over part of the block (bar.sync 0 with fewer threads than the block's), which the
// emulator runs only as __syncthreads() (named barriers 1 to 15: test_named_barriers.cu).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "gpulab/emu/diagnostics_api.hpp"

namespace {

__global__ void shared_address_of_global(const int* p, unsigned* out) {
  unsigned s;
  asm volatile("{\n\t.reg .u64 t;\n\tcvta.to.shared.u64 t, %1;\n\tcvt.u32.u64 %0, t;\n\t}" : "=r"(s) : "l"(p));
  out[threadIdx.x] = s;
}
__global__ void partial_barrier_zero(int* out) {
  asm volatile("bar.sync 0, 64;");
  out[threadIdx.x] = 1;
}

}  // namespace

TEST_CASE("inline PTX the emulator cannot honour is reported where it runs", "[inline-ptx]") {
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  gpulab::emu::take_diagnostics();
  int* global;
  unsigned* out;
  cudaMalloc(&global, 64 * sizeof(int));
  cudaMalloc(&out, 64 * sizeof(unsigned));
  shared_address_of_global<<<1, 32>>>(global, out);
  CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
  std::vector<gpulab::emu::Diagnostic> found = gpulab::emu::take_diagnostics();
  REQUIRE(found.size() == 1);
  CHECK(found[0].kind == "inline-ptx");
  CHECK(found[0].message.find("cvta.to.shared") != std::string::npos);
  CHECK(found[0].line > 0);

  REQUIRE(cudaDeviceReset() == cudaSuccess);
  int* flags;
  cudaMalloc(&flags, 128 * sizeof(int));
  partial_barrier_zero<<<1, 128>>>(flags);
  CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
  found = gpulab::emu::take_diagnostics();
  REQUIRE(found.size() == 1);
  CHECK(found[0].message.find("bar.sync 0, 64") != std::string::npos);
  CHECK(found[0].message.find("id from 1 to 15") != std::string::npos);
  REQUIRE(cudaDeviceReset() == cudaSuccess);
}
