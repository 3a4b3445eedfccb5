// usable_cpus() for Linux and macOS.
#include "platform/cpu_count.hpp"

#include <thread>

#if defined(__linux__)
#include <sched.h>
#elif defined(__APPLE__)
#include <sys/sysctl.h>
#include <sys/types.h>
#endif

namespace gpulab::platform {

unsigned usable_cpus() {
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return static_cast<unsigned>(CPU_COUNT(&set));
#elif defined(__APPLE__)
  int active = 0;
  size_t size = sizeof active;
  if (sysctlbyname("hw.activecpu", &active, &size, nullptr, 0) == 0 && active > 0) return static_cast<unsigned>(active);
#endif
  const unsigned hw = std::thread::hardware_concurrency();
  return hw > 0 ? hw : 1;
}

}  // namespace gpulab::platform
