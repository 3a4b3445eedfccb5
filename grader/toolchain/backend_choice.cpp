// choose_backend: --backend auto resolved against this build and this machine.
#include "toolchain/backend_choice.hpp"

#include "process/run.hpp"

namespace gpulab::toolchain {

Backend choose_backend(const std::string& name) {
  if (name != "auto") return parse_backend(name);
  const bool gpu = cuda_backend_available() && process::nvidia_gpu_visible();
  return gpu ? Backend::cuda : Backend::emu;
}

}  // namespace gpulab::toolchain
