// executable_path() for Linux and macOS.
#include "platform/executable_path.hpp"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#if defined(__APPLE__)
#include <mach-o/dyld.h>
#include <stdint.h>
#endif

namespace gpulab::platform {

std::string executable_path() {
#if defined(__linux__)
  char path[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  return n > 0 ? std::string(path, static_cast<size_t>(n)) : std::string();
#elif defined(__APPLE__)
  uint32_t size = 0;
  _NSGetExecutablePath(nullptr, &size);  // asks for the size
  std::string raw(size, '\0');
  if (_NSGetExecutablePath(raw.data(), &size) != 0) return {};
  raw.resize(raw.find('\0') == std::string::npos ? raw.size() : raw.find('\0'));
  char resolved[PATH_MAX];
  return realpath(raw.c_str(), resolved) ? std::string(resolved) : raw;
#else
#error "gpulab::platform::executable_path: Linux and macOS only"
#endif
}

}  // namespace gpulab::platform
