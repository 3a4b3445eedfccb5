// Host sources (.c, .cpp, .cc, .cxx) in an emulator build, compiled as nvcc hands them to the host
// compiler: each on its own, as plain C or C++ that sees only what it includes (no CUDA header
// forced in, no __CUDACC__), with the macros nvcc defines for every file (nvcc_macros) and CUDA's
// include folder, which here is the emulator's: `#include <cuda_runtime.h>` gives such a file the
// runtime API, as CUDA's header does for a host compiler. The objects are linked with the program.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "toolchain/toolchain.hpp"

namespace gpulab::toolchain {

bool is_host_source(const std::filesystem::path& source);  // .c, .cpp, .cc, .cxx
bool is_c_source(const std::filesystem::path& source);     // .c

// The macros nvcc defines for every file it compiles, for `cuda_arch` (e.g. "sm_90"), as -D options
// (checked against `nvcc --dryrun` of CUDA 13.0); a .cu file also gets __CUDACC__ (cuda_emulation.hpp).
std::vector<std::string> nvcc_macros(const std::string& cuda_arch);

// The compile of `source` into `object` with the program's -I folders (`include_flags`, as plain
// -I options), `defines` (NAME or NAME=VALUE) and nvcc's macros for `cuda_arch`.
CompileJob host_object_job(const std::filesystem::path& source, const std::filesystem::path& object,
                           const std::vector<std::string>& include_flags, const std::vector<std::string>& defines,
                           const std::string& cuda_arch);

}  // namespace gpulab::toolchain
