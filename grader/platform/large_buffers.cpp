// Large buffers kept for reuse by the allocator (large_buffers.hpp).
#include "large_buffers.hpp"

#include <cstdlib>  // defines __GLIBC__ where the C library is glibc (the test below needs it first)

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace gpulab::platform {

void keep_large_buffers_for_reuse() {
#if defined(__GLIBC__)
  // Buffers up to 1 GiB come from the heap rather than from a mapping of their own, and freed
  // memory at the heap's top is kept up to 1 GiB rather than trimmed.
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

}  // namespace gpulab::platform
