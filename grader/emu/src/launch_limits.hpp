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
size_t max_dynamic_shared_bytes();               // 48 KiB unless raised with cudaFuncSetAttribute
void raise_max_dynamic_shared_bytes(size_t bytes);

}  // namespace gpulab::emu
