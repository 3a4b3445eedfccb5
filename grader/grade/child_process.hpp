// Running one submission process with a wall-clock limit: the whole process
// group is killed when time runs out, and captured output is capped. The
// sandbox (grader/sandbox/, docs/security.md) runs bubblewrap through this,
// with the options below.
#pragma once
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace gpulab::grade {

struct ChildResult {
  int exit_code = -1;
  int signal = 0;          // the signal that ended it, 0 if it exited
  bool timed_out = false;
  bool output_exceeded = false;  // printed more than the cap and was stopped (ChildOptions::stop_at_output_cap)
  bool sandbox_failed = false;   // the sandbox itself could not start the program (set by the sandbox's user)
  double seconds = 0;
  std::string output;      // stdout and stderr together, truncated to the cap with a note
};

struct ChildOptions {
  double time_limit_s = 60;
  size_t output_cap = 256 * 1024;
  bool stop_at_output_cap = false;  // kill the child when it prints more than the cap, instead of discarding the rest
  bool clear_environment = false;   // the child gets `env` only, not the grader's environment
  // Descriptors handed to the child: left open across its exec, closed in the parent after the fork.
  std::vector<int> hand_over_fds;
  // The read end of bubblewrap's --info-fd pipe. Once bwrap reports its "child-pid" (the
  // sandbox's PID-namespace init), stopping the child kills that process first: the kernel
  // then ends every process of the namespace before bwrap itself exits, so none outlives the run.
  int sandbox_info_fd = -1;
  // Runs in the child between fork and exec (privileges, resource limits); false: exit 126 with the message.
  std::function<bool(std::string& message)> before_exec;
};

ChildResult run_child(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                      const ChildOptions& options);
ChildResult run_child(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                      double time_limit_s, size_t output_cap = 256 * 1024);

}  // namespace gpulab::grade
