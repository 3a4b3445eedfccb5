// Running one submission process with a wall-clock limit: the whole process
// group is killed when time runs out, and captured output is capped.
// (Sandboxing with bubblewrap wraps this; see docs/security.md once it exists.)
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace gpulab::grade {

struct ChildResult {
  int exit_code = -1;
  int signal = 0;          // the signal that ended it, 0 if it exited
  bool timed_out = false;
  double seconds = 0;
  std::string output;      // stdout and stderr together, truncated to the cap with a note
};

ChildResult run_child(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                      double time_limit_s, size_t output_cap = 256 * 1024);

}  // namespace gpulab::grade
