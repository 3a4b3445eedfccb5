// The isolation a submission's compiles and runs get, chosen by --sandbox:
//   bwrap  bubblewrap's namespaces (bwrap_sandbox.hpp): the default;
//   user   an unprivileged user without namespaces, for containers where
//          bubblewrap cannot create them (user_sandbox.hpp; gpulab runs as root);
//   auto   bwrap where it starts, else user where gpulab runs as root;
//   none   no isolation (--no-sandbox): only the limits.
// Both kinds run a SandboxPolicy (what the process may see and write) with the
// limits applied; where neither can run, opening one is refused with why and
// how to proceed (SandboxUnavailable; `gpulab grade` exits 5).
#pragma once
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "process/run.hpp"
#include "resource_limits.hpp"
#include "sandbox_policy.hpp"

namespace gpulab::sandbox {

enum class Mode { automatic, bwrap, user, none };
// "auto", "bwrap", "user", "none" (the --sandbox values); throws std::invalid_argument otherwise.
Mode parse_mode(const std::string& name);
const std::vector<std::string>& mode_names();

// Grading untrusted code is refused: the message says why and how to proceed.
struct SandboxUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What gpulab keeps from the submission and must not be reachable from inside, whatever the
// isolation (user mode checks each; the bwrap sandbox shows none of them by construction).
struct PrivatePath {
  std::filesystem::path path;
  std::string what;  // "the gpulab folder (GPULAB_HOME)", "the build cache (GPULAB_CACHE)", ...
};

class Sandbox {
 public:
  // `mode` other than none. Throws SandboxUnavailable when that isolation cannot run here.
  static std::unique_ptr<Sandbox> open(Mode mode, const std::vector<PrivatePath>& private_paths);
  virtual ~Sandbox() = default;

  // Runs policy.command as the policy says, with the limits. With stop_at_output_cap a run that
  // prints more than limits.output_kb is stopped. A run that could not be started (its set-up
  // failed) has a spawn error.
  virtual process::ProcessResult run(SandboxPolicy policy, const ResolvedLimits& limits, double wall_s,
                                     bool stop_at_output_cap) const = 0;

  // Lets the sandbox's user write `dir` / gives it back afterwards (no-ops unless a bwrap
  // sandbox runs as another user and reaches the folder by path).
  virtual void hand_over(const std::filesystem::path&) const {}
  virtual void take_back(const std::filesystem::path&) const {}
  // Whether the files a compile reads must be readable by other users (a bwrap sandbox that
  // runs as `nobody` reads them in place).
  virtual bool reads_in_place_as_other_user() const { return false; }
  // In words, for every result: "bubblewrap sandbox (namespaces: no network, ...)".
  virtual std::string description() const = 0;
  // A bwrap sandbox's message when it failed before the program ran; "" otherwise.
  virtual bool refused(const process::ProcessResult&) const { return false; }

  const SystemView& system() const { return system_; }

 protected:
  SystemView system_;
};

// What `gpulab grade` prints and the results say for --sandbox none.
std::string no_sandbox_description();

}  // namespace gpulab::sandbox
