// The running program's own file (Linux: /proc/self/exe; macOS: _NSGetExecutablePath).
#pragma once
#include <string>

namespace gpulab::platform {
// The absolute path of the running executable, symbolic links resolved; "" when it cannot be found.
std::string executable_path();
}  // namespace gpulab::platform
