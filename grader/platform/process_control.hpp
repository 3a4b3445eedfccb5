// Process plumbing that differs between Linux and macOS, for starting programs.
#pragma once

namespace gpulab::platform {

// A pipe whose both ends close on exec (Linux: pipe2 at once; macOS, which has no pipe2: pipe,
// then FD_CLOEXEC on each end). False with errno set when it fails.
bool cloexec_pipe(int fds[2]);

// In a child just forked: have the kernel kill it when its parent dies (Linux:
// PR_SET_PDEATHSIG). macOS has no such request: there the child's own time limit ends it.
void end_with_parent();

}  // namespace gpulab::platform
