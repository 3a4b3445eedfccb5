// Launch-configuration checks.
#include "launch_limits.hpp"

#include <algorithm>
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
size_t block_shared_limit(size_t dynamic_bytes) {
  return std::min(kSharedPerBlockOptin, dynamic_bytes + kStaticSharedLimit);
}

LaunchCheck check_launch_configuration(const LaunchRequest& r, size_t dynamic_shared_limit) {
  const dim3 b = r.block;
  const dim3 g = r.grid;
  const unsigned long long threads = 1ull * b.x * b.y * b.z;
  if (b.x == 0 || b.y == 0 || b.z == 0) {
    return {cudaErrorInvalidValue, "the block size " + dims(b) + " has a zero dimension"};
  }
  if (g.x == 0 || g.y == 0 || g.z == 0) {
    return {cudaErrorInvalidValue, "the grid size " + dims(g) +
                                       " has a zero dimension (is n zero, or "
                                       "was the block count rounded down?)"};
  }
  if (threads > 1024) {
    return {cudaErrorInvalidValue, "a block of " + dims(b) + " = " + std::to_string(threads) +
                                       " threads is more than the 1024 threads a block may have"};
  }
  if (b.x > 1024 || b.y > 1024 || b.z > 64) {
    return {cudaErrorInvalidValue, "the block size " + dims(b) + " exceeds the per-dimension limits (1024, 1024, 64)"};
  }
  if (g.x > 2147483647u || g.y > 65535u || g.z > 65535u) {
    return {cudaErrorInvalidValue, "the grid size " + dims(g) + " exceeds the limits (2147483647, 65535, 65535)"};
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

unsigned max_resident_blocks_per_sm(unsigned threads_per_block, size_t shared_bytes_per_block) {
  constexpr unsigned kWarpsPerSm = 64, kBlocksPerSm = 32;
  constexpr size_t kSharedPerSm = 233472, kReservedPerBlock = 1024;
  const unsigned warps = (threads_per_block + 31) / 32;
  unsigned blocks = std::min(kBlocksPerSm, kWarpsPerSm / warps);
  const size_t shared = shared_bytes_per_block + kReservedPerBlock;
  blocks = std::min<size_t>(blocks, kSharedPerSm / shared);
  return blocks;
}

LaunchCheck check_cooperative_launch(const LaunchRequest& r) {
  const unsigned threads = r.block.x * r.block.y * r.block.z;
  const unsigned long long blocks = 1ull * r.grid.x * r.grid.y * r.grid.z;
  const unsigned per_sm = max_resident_blocks_per_sm(threads, r.dynamic_shared_bytes);
  const unsigned long long limit = 1ull * per_sm * kModelledMultiprocessors;
  if (blocks <= limit) return {};
  return {cudaErrorCooperativeLaunchTooLarge,
          "a cooperative launch needs every block resident at once, and the grid " + dims(r.grid) + " has " +
              std::to_string(blocks) + " blocks, more than the " + std::to_string(limit) + " (" +
              std::to_string(per_sm) + " per SM x " + std::to_string(kModelledMultiprocessors) +
              " SMs) that blocks of " + std::to_string(threads) + " threads and " +
              std::to_string(r.dynamic_shared_bytes) +
              " bytes of dynamic shared memory allow on an H100; size the grid with "
              "cudaOccupancyMaxActiveBlocksPerMultiprocessor x the SM count, and loop over the data "
              "inside the kernel"};
}

}  // namespace gpulab::emu
