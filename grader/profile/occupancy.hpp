// Theoretical occupancy of a launch configuration: how many blocks of it one
// SM holds at once, from the per-SM limits of the target architecture (CUDA
// C++ Programming Guide, "Technical Specifications per Compute Capability",
// and the occupancy calculator's allocation rules). Registers per thread are
// not known to the emulator: they limit occupancy only when nvcc reported them.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

namespace gpulab::profile {

struct ArchLimits {
  std::string arch;  // "sm_90"
  unsigned max_warps_per_sm = 0;
  unsigned max_blocks_per_sm = 0;
  size_t shared_per_sm = 0;         // bytes usable by blocks
  size_t max_shared_per_block = 0;  // with the opt-in attribute
  size_t reserved_shared_per_block = 1024;
  size_t shared_granularity = 128;
  unsigned registers_per_sm = 65536;
  unsigned register_granularity = 256;  // registers are allocated per warp in units of this
};

// Null for an architecture gpulab has no table for.
std::optional<ArchLimits> arch_limits(const std::string& arch);

struct Occupancy {
  unsigned blocks_per_sm = 0;
  unsigned active_warps = 0;
  double fraction = 0;     // active warps / the SM's maximum
  std::string limited_by;  // "warps", "blocks", "shared memory", "registers"
  bool registers_known = false;
};

// registers_per_thread = 0: unknown (not counted).
Occupancy occupancy(const ArchLimits& limits, unsigned threads_per_block, size_t shared_bytes_per_block,
                    unsigned registers_per_thread = 0);

}  // namespace gpulab::profile
