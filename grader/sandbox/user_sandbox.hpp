// Isolation without namespaces, for containers where bubblewrap cannot
// create them (Gradescope's Docker image) and gpulab runs as root: each
// compile and run is done as an unprivileged user (`gpulab-sandbox`, or
// $GPULAB_SANDBOX_USER) in a copy of only the files its policy names
// (jail.hpp), with the limits set by the kernel for that user (the process
// count holds: the user is not root), a new process group, no new privileges
// (set-user-ID programs do not raise them), no network (a seccomp filter
// refuses every socket but Unix-domain ones: network_filter.hpp), and, when it
// ends, every process of that user killed and reaped (gpulab is their
// subreaper) and what it left in /tmp, /var/tmp and /dev/shm removed.
// It cannot signal or trace the grader (another user's processes). Runs of the
// user are one at a time (a lock), so that ending one run's processes cannot
// touch another's. Before anything runs, the paths gpulab keeps private (its
// folder, the build cache, the submission, the results) are checked to be
// out of that user's reach, or grading is refused with what to change.
// Not defended: local Unix-domain sockets other users' services listen on, the
// disk space of shared folders, what every user may read on the system (other
// users' files, /proc's view of every process), and the kernel's attack surface.
#pragma once
#include <sys/types.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "sandbox.hpp"

namespace gpulab::sandbox {

class UserSandbox : public Sandbox {
 public:
  // Throws SandboxUnavailable: gpulab is not root, the user does not exist, a private path is
  // reachable by it, or a probe run fails.
  static std::unique_ptr<UserSandbox> open(const std::vector<PrivatePath>& private_paths);

  process::ProcessResult run(SandboxPolicy policy, const ResolvedLimits& limits, double wall_s,
                             bool stop_at_output_cap) const override;
  std::string description() const override;

 private:
  UserSandbox() = default;
  std::string user_;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
  std::filesystem::path lock_;  // one run of this user at a time, across gpulab processes
};

// The user's name: $GPULAB_SANDBOX_USER, else gpulab-sandbox.
std::string sandbox_user_name();

}  // namespace gpulab::sandbox
