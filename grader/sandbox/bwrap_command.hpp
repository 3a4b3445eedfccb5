// The bubblewrap command line for a policy: new user, PID, network, IPC, UTS
// and cgroup namespaces (so no network at all), a fresh /proc and /dev, a
// private memory-backed /tmp, the policy's binds, a cleared environment, and
// a sandbox that dies with the grader.
#pragma once
#include <string>
#include <vector>

#include "sandbox_policy.hpp"

namespace gpulab::sandbox {

// `info_fd` (>= 0) is the descriptor bwrap reports its namespace's init process on.
std::vector<std::string> bwrap_command(const std::string& bwrap, const SandboxPolicy& policy, int info_fd);

}  // namespace gpulab::sandbox
