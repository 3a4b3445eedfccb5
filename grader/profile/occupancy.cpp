// Per-SM limits and the occupancy they allow (see occupancy.hpp).
#include "profile/occupancy.hpp"

#include <algorithm>

namespace gpulab::profile {

std::optional<ArchLimits> arch_limits(const std::string& arch) {
  ArchLimits l;
  l.arch = arch;
  if (arch == "sm_90" || arch == "sm_90a") {  // H100, H200
    l.max_warps_per_sm = 64, l.max_blocks_per_sm = 32, l.shared_per_sm = 228 * 1024,
    l.max_shared_per_block = 227 * 1024;
  } else if (arch == "sm_80") {  // A100
    l.max_warps_per_sm = 64, l.max_blocks_per_sm = 32, l.shared_per_sm = 164 * 1024,
    l.max_shared_per_block = 163 * 1024;
  } else if (arch == "sm_86") {
    l.max_warps_per_sm = 48, l.max_blocks_per_sm = 16, l.shared_per_sm = 100 * 1024, l.max_shared_per_block = 99 * 1024;
  } else if (arch == "sm_89") {
    l.max_warps_per_sm = 48, l.max_blocks_per_sm = 24, l.shared_per_sm = 100 * 1024, l.max_shared_per_block = 99 * 1024;
  } else if (arch == "sm_75") {
    l.max_warps_per_sm = 32, l.max_blocks_per_sm = 16, l.shared_per_sm = 64 * 1024, l.max_shared_per_block = 64 * 1024;
  } else if (arch == "sm_70") {
    l.max_warps_per_sm = 64, l.max_blocks_per_sm = 32, l.shared_per_sm = 96 * 1024, l.max_shared_per_block = 96 * 1024;
  } else {
    return std::nullopt;
  }
  return l;
}

Occupancy occupancy(const ArchLimits& l, unsigned threads_per_block, size_t shared_bytes, unsigned registers) {
  Occupancy o;
  if (threads_per_block == 0) return o;
  const unsigned warps = (threads_per_block + 31) / 32;
  unsigned blocks = l.max_blocks_per_sm;
  o.limited_by = "blocks";
  const auto limit = [&](unsigned n, const char* why) {
    if (n < blocks) {
      blocks = n;
      o.limited_by = why;
    }
  };
  limit(l.max_warps_per_sm / warps, "warps");
  if (shared_bytes > 0) {
    const size_t per_block = (shared_bytes + l.shared_granularity - 1) / l.shared_granularity * l.shared_granularity +
                             l.reserved_shared_per_block;
    limit(shared_bytes > l.max_shared_per_block ? 0 : static_cast<unsigned>(l.shared_per_sm / per_block),
          "shared memory");
  }
  if (registers > 0) {
    o.registers_known = true;
    const unsigned per_warp =
        (registers * 32 + l.register_granularity - 1) / l.register_granularity * l.register_granularity;
    limit(registers > 255 ? 0 : (l.registers_per_sm / per_warp) / warps, "registers");
  }
  o.blocks_per_sm = blocks;
  o.active_warps = blocks * warps;
  o.fraction = static_cast<double>(o.active_warps) / l.max_warps_per_sm;
  return o;
}

}  // namespace gpulab::profile
