// Registers per thread of each kernel, as ptxas reports them, where nvcc is
// installed (it is not needed for the emulator; on a machine without it the
// profile says the register limit on occupancy is not known).
#pragma once
#include <map>
#include <string>
#include <vector>

namespace gpulab::profile {

// Kernel name (as launched, and without template arguments) -> registers per thread.
// Empty when nvcc is not there or does not compile the file; never throws. `defines` are
// NAME or NAME=VALUE, passed as -D.
std::map<std::string, int> kernel_registers(const std::string& source, const std::string& arch,
                                            const std::vector<std::string>& include_dirs,
                                            const std::vector<std::string>& defines = {});

// Parses ptxas's "Compiling entry function '_Z...' for 'sm_90'" and "Used N registers" lines.
std::map<std::string, int> parse_ptxas_registers(const std::string& output);

}  // namespace gpulab::profile
