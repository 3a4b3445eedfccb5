// Running a policy under bubblewrap: finding bwrap ($GPULAB_BWRAP, else on
// PATH), checking once that a sandbox can start here (or refusing, with why
// and how to proceed), and running each command with the limits applied
// inside. When the grader runs as root the sandbox runs as the unprivileged
// user `nobody`, so that the process limit holds (the kernel does not limit
// root); the files it needs are then staged in a private mount namespace.
#pragma once
#include <sys/types.h>

#include <memory>
#include <optional>
#include <string>

#include "files/temp_folder.hpp"
#include "sandbox.hpp"

namespace gpulab::sandbox {

class BwrapSandbox : public Sandbox {
 public:
  // Throws SandboxUnavailable when bubblewrap is missing or cannot create its namespaces.
  static std::unique_ptr<BwrapSandbox> open();

  // An exit status of 128+N from bwrap (its way of passing on a signal) is reported as signal N.
  process::ProcessResult run(SandboxPolicy policy, const ResolvedLimits& limits, double wall_s,
                             bool stop_at_output_cap) const override;
  void hand_over(const std::filesystem::path& dir) const override;
  void take_back(const std::filesystem::path& dir) const override;
  bool reads_in_place_as_other_user() const override { return switch_user_; }
  std::string description() const override;
  // bubblewrap failed before the program ran: it reports that as "bwrap: ..." with status 1.
  bool refused(const process::ProcessResult& r) const override;

 private:
  BwrapSandbox() = default;
  std::string bwrap_;
  std::string prlimit_;
  bool switch_user_ = false;    // running as root: the sandbox runs as `nobody`
  bool disable_userns_ = true;  // this bwrap knows --disable-userns (0.8 and later)
  uid_t uid_ = 0;
  gid_t gid_ = 0;
  std::optional<files::TempFolder> stage_;  // where a root grader stages the sandbox's files (an empty folder)
};

// Where bubblewrap is: $GPULAB_BWRAP (a path, or a name looked up on PATH), else `bwrap` on PATH; "" if not found.
std::string find_bwrap();

// How to proceed where a sandbox cannot start (shared by both kinds' refusals).
extern const char* const kHowToProceed;

}  // namespace gpulab::sandbox
