// Running a policy under bubblewrap: finding bwrap ($GPULAB_BWRAP, else on
// PATH), checking once that a sandbox can start here (or refusing, with why
// and how to proceed), and running each command with the limits applied
// inside. When the grader runs as root the sandbox runs as the unprivileged
// user `nobody`, so that the process limit holds (the kernel does not limit
// root); the files it needs are then staged in a private mount namespace.
#pragma once
#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "files/temp_folder.hpp"
#include "process/run.hpp"
#include "resource_limits.hpp"
#include "sandbox_policy.hpp"

namespace gpulab::sandbox {

// Grading untrusted code is refused: the message says why and how to proceed.
struct SandboxUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class Sandbox {
 public:
  // Throws SandboxUnavailable when bubblewrap is missing or cannot create its namespaces.
  static std::unique_ptr<Sandbox> open();
  ~Sandbox();
  Sandbox(const Sandbox&) = delete;
  Sandbox& operator=(const Sandbox&) = delete;

  // Runs policy.command inside, with the limits (prlimit, inside the sandbox). With
  // stop_at_output_cap a run that prints more than limits.output_kb is stopped. An exit
  // status of 128+N from bwrap (its way of passing on a signal) is reported as signal N. A run
  // that could not be started (the staging of its files failed) has a spawn error.
  process::ProcessResult run(SandboxPolicy policy, const ResolvedLimits& limits, double wall_s,
                         bool stop_at_output_cap) const;

  // Lets the sandbox's user write `dir` (a no-op unless the sandbox runs as another user).
  void hand_over(const std::filesystem::path& dir) const;
  // Gives `dir` and what the sandbox wrote in it back to the grader's user (after a compile,
  // so that the cached build cannot be changed by that other user later).
  void take_back(const std::filesystem::path& dir) const;

  bool runs_as_other_user() const { return switch_user_; }
  const SystemView& system() const { return system_; }
  const std::string& bwrap() const { return bwrap_; }

 private:
  Sandbox() = default;
  std::string bwrap_;
  std::string prlimit_;
  SystemView system_;
  bool switch_user_ = false;  // running as root: the sandbox runs as `nobody`
  bool disable_userns_ = true;  // this bwrap knows --disable-userns (0.8 and later)
  uid_t uid_ = 0;
  gid_t gid_ = 0;
  std::optional<files::TempFolder> stage_;  // where a root grader stages the sandbox's files (an empty folder)
};

// Where bubblewrap is: $GPULAB_BWRAP (a path, or a name looked up on PATH), else `bwrap` on PATH; "" if not found.
std::string find_bwrap();

}  // namespace gpulab::sandbox
