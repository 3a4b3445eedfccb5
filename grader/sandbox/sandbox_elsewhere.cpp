// The sandbox on systems other than Linux (macOS): bubblewrap's namespaces and the unprivileged
// user's seccomp filter and /proc sweeps are Linux's, so both kinds are refused with the way on.
// A student's `gpulab test` and `gpulab run` need no sandbox (isolation: none); grading a class
// happens on Linux. Compiled instead of bwrap_*.cpp, user_sandbox.cpp, other_user.cpp and
// network_filter.cpp where CMAKE_SYSTEM_NAME is not Linux (docs/platforms.md: written, not yet run).
#include "bwrap_sandbox.hpp"
#include "user_sandbox.hpp"

namespace gpulab::sandbox {
namespace {
[[noreturn]] void refuse(const char* kind) {
  throw SandboxUnavailable(std::string("the ") + kind +
                           " sandbox needs Linux (namespaces, seccomp, /proc), and this system is not Linux: "
                           "grade submissions on a Linux machine; here, `gpulab test` and `gpulab run` check your "
                           "own code without a sandbox, and --sandbox none grades without one where the machine "
                           "itself is throw-away");
}
}  // namespace

std::unique_ptr<BwrapSandbox> BwrapSandbox::open() { refuse("bubblewrap"); }
std::unique_ptr<UserSandbox> UserSandbox::open(const std::vector<PrivatePath>&) { refuse("unprivileged-user"); }

}  // namespace gpulab::sandbox
