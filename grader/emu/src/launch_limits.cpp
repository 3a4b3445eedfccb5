// Launch-configuration checks.
#include "launch_limits.hpp"

#include <atomic>

namespace gpulab::emu {
namespace {
std::atomic<size_t> dynamic_limit{48 * 1024};
std::string dims(dim3 d) {
  return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
}
}  // namespace

size_t max_dynamic_shared_bytes() { return dynamic_limit.load(); }
void raise_max_dynamic_shared_bytes(size_t bytes) { dynamic_limit.store(bytes); }

LaunchCheck check_launch_configuration(const LaunchRequest& r, size_t dynamic_shared_limit) {
  const dim3 b = r.block;
  const dim3 g = r.grid;
  const unsigned long long threads = 1ull * b.x * b.y * b.z;
  if (b.x == 0 || b.y == 0 || b.z == 0) {
    return {cudaErrorInvalidValue, "the block size " + dims(b) + " has a zero dimension"};
  }
  if (g.x == 0 || g.y == 0 || g.z == 0) {
    return {cudaErrorInvalidValue, "the grid size " + dims(g) + " has a zero dimension (is n zero, or "
                                           "was the block count rounded down?)"};
  }
  if (threads > 1024) {
    return {cudaErrorInvalidValue, "a block of " + dims(b) + " = " + std::to_string(threads) +
                                               " threads is more than the 1024 threads a block may have"};
  }
  if (b.x > 1024 || b.y > 1024 || b.z > 64) {
    return {cudaErrorInvalidValue,
            "the block size " + dims(b) + " exceeds the per-dimension limits (1024, 1024, 64)"};
  }
  if (g.x > 2147483647u || g.y > 65535u || g.z > 65535u) {
    return {cudaErrorInvalidValue,
            "the grid size " + dims(g) + " exceeds the limits (2147483647, 65535, 65535)"};
  }
  if (r.dynamic_shared_bytes > dynamic_shared_limit) {
    return {cudaErrorInvalidValue, std::to_string(r.dynamic_shared_bytes) +
                                       " bytes of dynamic shared memory is more than the " +
                                       std::to_string(dynamic_shared_limit) +
                                       " bytes allowed (raise it with cudaFuncSetAttribute("
                                       "cudaFuncAttributeMaxDynamicSharedMemorySize) up to 232448)"};
  }
  return {};
}

}  // namespace gpulab::emu
