// cloexec_pipe() and end_with_parent() for Linux and macOS.
#include "platform/process_control.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/prctl.h>
#endif

namespace gpulab::platform {

bool cloexec_pipe(int fds[2]) {
#if defined(__linux__)
  return pipe2(fds, O_CLOEXEC) == 0;
#else
  // Not atomic: a child forked by another thread between the two calls may inherit an end (its
  // exec does not close it). Written for macOS, not yet run there (docs/platforms.md).
  if (pipe(fds) != 0) return false;
  for (int i = 0; i < 2; ++i) fcntl(fds[i], F_SETFD, FD_CLOEXEC);
  return true;
#endif
}

void end_with_parent() {
#if defined(__linux__)
  prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
}

}  // namespace gpulab::platform
