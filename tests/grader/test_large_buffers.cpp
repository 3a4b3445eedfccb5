// The grader keeps freed large buffers for the next case (platform/large_buffers.hpp): with glibc,
// a 64 MB buffer then comes from the heap, not from a mapping of its own that is handed back to
// the system (and zero-filled again by it) when freed. A grading once paid for that on every case
// because the setting was compiled out (the C library's macro was tested before any header of it).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>

#include "platform/large_buffers.hpp"

#if defined(__GLIBC__)
#include <malloc.h>

namespace {
// Chunks the allocator holds as mappings of their own.
long mapped_chunks() {
#if __GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33)
  return static_cast<long>(mallinfo2().hblks);
#else
  return mallinfo().hblks;
#endif
}
}  // namespace

TEST_CASE("large buffers come from the heap and are kept for the next case (glibc)") {
  gpulab::platform::keep_large_buffers_for_reuse();
  const long before = mapped_chunks();
  constexpr size_t kBytes = size_t{64} << 20;
  auto* first = static_cast<unsigned char*>(std::malloc(kBytes));
  REQUIRE(first);
  std::memset(first, 1, kBytes);
  CHECK(mapped_chunks() == before);  // not a mapping of its own
  std::free(first);
  auto* second = static_cast<unsigned char*>(std::malloc(kBytes));
  REQUIRE(second);
  CHECK(second == first);  // the same memory again
  std::free(second);
}
#else
TEST_CASE("large buffers: nothing to check without glibc") { SUCCEED("the allocator has no such setting here"); }
#endif
