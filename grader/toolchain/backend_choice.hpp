// Which backend a command builds for when the user says --backend auto: the one
// decision shared by grade, test, batch and validate.
#pragma once
#include <string>

#include "toolchain/toolchain.hpp"

namespace gpulab::toolchain {

// "auto": the cuda backend where it was built and nvidia-smi sees a GPU, else the emulator;
// any other name as parse_backend reads it (throws std::invalid_argument for an unknown one).
Backend choose_backend(const std::string& name);

}  // namespace gpulab::toolchain
