// page_size(): POSIX, the same call on Linux and macOS.
#include "platform/page_size.hpp"

#include <unistd.h>

namespace gpulab::platform {

size_t page_size() {
  static const size_t page = [] {
    const long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? static_cast<size_t>(p) : size_t{4096};
  }();
  return page;
}

}  // namespace gpulab::platform
