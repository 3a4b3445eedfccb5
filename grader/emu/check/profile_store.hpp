// The process's profile: every launch's per-site totals merged per kernel,
// kept for take_profile() and written to the file GPULAB_EMU_PROFILE names
// (after launches, at most twice a second, and at exit), so that a program
// that crashes later still leaves the profile of what it ran.
#pragma once
#include <cstddef>
#include <cstdint>
#include <unordered_map>

#include "gpulab/emu/profile_api.hpp"

namespace gpulab::emu {
struct LaunchState;
}

namespace gpulab::emu::check {

// `sites` maps (code_offset(pc) << 3 | kind) to the launch's totals at that site.
void add_launch_to_profile(const LaunchState& launch, const std::unordered_map<uint64_t, SiteCounts>& sites,
                           size_t static_shared_bytes, uint64_t unprofiled_accesses, uint64_t blocks,
                           uint64_t profiled_blocks);

// Registers the exit-time write of the profile file (once). Called after the first write, so
// that everything writing uses (the store, nlohmann's static tables) outlives the handler.
void write_profile_at_exit();

}  // namespace gpulab::emu::check
