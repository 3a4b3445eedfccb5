// Running a child process and capturing what it prints (for compilers).
#pragma once
#include <string>
#include <vector>

namespace gpulab::toolchain {

struct ProcessResult {
  int exit_code = -1;  // 128 + signal if killed by a signal
  std::string output;  // stdout and stderr together, in order
};

// Runs argv[0] (searched on PATH) with the arguments; never throws for a failing child.
ProcessResult run_process(const std::vector<std::string>& argv);

}  // namespace gpulab::toolchain
