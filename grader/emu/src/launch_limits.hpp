// The launch-configuration rules of the emulated device (those of sm_90) and
// the error code CUDA 13 returns when a launch breaks one of them: measured on
// an H100 with driver 580 (tests/gpu/probe_runtime_codes.cu), every such launch
// answers cudaErrorInvalidValue, not the cudaErrorInvalidConfiguration that
// older documentation names.
#pragma once
#include <string>

#include "gpulab/emu/kernel_launch.hpp"

namespace gpulab::emu {

struct LaunchCheck {
  cudaError_t error = cudaSuccess;
  std::string reason;  // empty when the launch is valid
};

LaunchCheck check_launch_configuration(const LaunchRequest& request, size_t dynamic_shared_limit);
// A cooperative launch must fit on the modelled H100 at once: 132 SMs, each
// holding as many blocks of this shape as CUDA's occupancy rules allow (2048
// threads = 64 warps, 32 blocks, 228 KiB of shared memory with 1 KiB reserved
// per block). Registers are not modelled; static __shared__ variables are not
// known before the kernel runs, so only the dynamic shared memory counts.
constexpr unsigned kModelledMultiprocessors = 132;
unsigned max_resident_blocks_per_sm(unsigned threads_per_block, size_t shared_bytes_per_block);
LaunchCheck check_cooperative_launch(const LaunchRequest& request);
size_t max_dynamic_shared_bytes();  // 48 KiB unless raised with cudaFuncSetAttribute
void raise_max_dynamic_shared_bytes(size_t bytes);
// Shared memory per block on sm_90: a kernel's static __shared__ variables may take at most 48 KiB
// (ptxas refuses more), the dynamic part at most what cudaFuncAttributeMaxDynamicSharedMemorySize
// allows (checked at launch), and both together at most the opt-in maximum. The static part does
// not count against the attribute.
constexpr size_t kStaticSharedLimit = 48 * 1024;
constexpr size_t kSharedPerBlockOptin = 232448;
// The most shared memory (dynamic + static) a block of a launch with `dynamic_bytes` may use.
size_t block_shared_limit(size_t dynamic_bytes);

}  // namespace gpulab::emu
