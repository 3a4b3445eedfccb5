// C sources (.c) in an emulator build. The emulator's compile is C++ (-std=c++20 and the
// emulator's forced include), so each C file is compiled on its own, as C, into an object
// linked with the program — as nvcc hands a .c file to the host compiler.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "toolchain/toolchain.hpp"

namespace gpulab::toolchain {

bool is_c_source(const std::filesystem::path& source);  // a .c file

// The compile of `source` into `object` with the program's -I/-D options (`include_flags` as
// given to the C++ compile, `defines` as NAME or NAME=VALUE).
CompileJob c_object_job(const std::filesystem::path& source, const std::filesystem::path& object,
                        const std::vector<std::string>& include_flags, const std::vector<std::string>& defines);

}  // namespace gpulab::toolchain
