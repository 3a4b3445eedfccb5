// Starting a process and waiting for it: the one way gpulab runs compilers,
// submissions (directly or under bubblewrap), nvidia-smi and its own helper
// programs. It returns how the process ended, or, when it could not be
// started at all (no pipe, no fork, exec failed, the set-up before exec
// failed), a spawn error: the grader's problem, never the program's. A
// wall-clock limit kills the process group (and a sandbox's PID namespace);
// output is captured up to a cap; SIGINT/SIGTERM to gpulab stop the child and
// throw process::Interrupted (interruption.hpp).
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace gpulab::process {

struct ProcessOptions {
  double time_limit_s = 0;  // wall clock; 0: none
  size_t output_cap = 0;    // bytes of stdout + stderr kept; 0: all
  // Resident memory of the process and its descendants (resident_memory.hpp), sampled about
  // ten times a second; above it the group is killed. 0: not watched.
  size_t resident_limit_bytes = 0;
  // With markers (below): a step, from one kStepMarker mark (or the start) to the next, that lasts
  // longer than this is stopped as the time limit stops the whole run (timed_out). 0: no steps.
  double step_limit_s = 0;
  bool stop_at_output_cap = false;         // kill the process when it prints more than the cap
  bool capture_output = true;              // false: it writes to gpulab's own stdout and stderr
  bool search_path = false;                // look argv[0] up on PATH
  bool clear_environment = false;          // the child gets `env` only
  std::map<std::string, std::string> env;  // set in the child
  // Descriptors handed to the child: left open across its exec, closed in the parent after the fork.
  std::vector<int> hand_over_fds;
  // The read end of bubblewrap's --info-fd pipe. Once bwrap reports its "child-pid" (the
  // sandbox's PID-namespace init), stopping the child kills that process first: the kernel
  // then ends every process of the namespace before bwrap itself exits, so none outlives the run.
  int sandbox_info_fd = -1;
  // Runs in the child between fork and exec (privileges, resource limits); false (with a
  // message) makes the start fail with that message as the spawn error.
  std::function<bool(std::string& message)> before_exec;
};

// A marker the process wrote on its output: kMarkerStart + name + kMarkerEnd, timestamped on the
// parent's clock when it arrived (the harness marks the start and end of its timed calls).
inline constexpr const char* kMarkerStart = "\x1egpulab-phase ";
inline constexpr char kMarkerEnd = '\x1e';
// Marks whose name begins with this start a step (the harness marks each case it runs this way).
inline constexpr const char* kStepMarker = "case_begin:";
struct OutputMarker {
  std::string name;
  double seconds = 0;  // since the process started, on the parent's clock
};

struct ProcessResult {
  std::string spawn_error;  // why it could not be started; then nothing below means anything
  int exit_code = -1;       // when it exited
  int signal = 0;           // the signal that ended it, 0 if it exited
  bool timed_out = false;
  bool output_exceeded = false;    // printed more than the cap and was stopped (stop_at_output_cap)
  bool memory_exceeded = false;    // held more than resident_limit_bytes and was stopped
  size_t peak_resident_bytes = 0;  // the most seen while watching (resident_limit_bytes set)
  double seconds = 0;
  std::string output;                 // stdout and stderr together, cut at the cap with a note (markers removed)
  std::vector<OutputMarker> markers;  // in order of arrival, at most 8000 (the process writes them)

  bool started() const { return spawn_error.empty(); }
  // The shell's view: the exit code, or 128 + the signal.
  int status() const { return signal ? 128 + signal : exit_code; }
};

ProcessResult run(const std::vector<std::string>& argv, const ProcessOptions& options = {});

// Whether an NVIDIA GPU is visible here (`nvidia-smi -L` succeeds).
bool nvidia_gpu_visible();

}  // namespace gpulab::process
