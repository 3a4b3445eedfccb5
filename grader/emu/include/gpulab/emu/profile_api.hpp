// The emulator's profile of a program, as data: what a hardware profiler would
// count for each memory-access site of each kernel, with the GPU threads'
// accesses grouped into warp-level requests as the hardware groups them (the
// lanes of a warp at the same site in the same step). Collected by the
// checking build (`gpulab run --profile`, grader/emu/check/profiler.hpp); tests
// read it with take_profile(), the CLI from the file GPULAB_EMU_PROFILE names.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gpulab::emu {

enum class AccessSiteKind : uint8_t {
  global_load,
  global_store,
  global_atomic,
  shared_load,
  shared_store,
  shared_atomic,
};
inline const char* access_site_kind_name(AccessSiteKind kind) {
  constexpr const char* names[] = {"global_load", "global_store", "global_atomic",
                                   "shared_load", "shared_store", "shared_atomic"};
  return names[static_cast<int>(kind)];
}
inline bool is_shared(AccessSiteKind kind) { return kind >= AccessSiteKind::shared_load; }

// Totals over every warp-level request made at one site.
struct SiteCounts {
  uint64_t requests = 0;             // warp-level requests (one per warp per dynamic execution)
  uint64_t lanes = 0;                // active lanes, summed over requests
  uint64_t lane_slots = 0;           // lanes the warps had (32, fewer in a block's last partial warp), summed
  uint64_t bytes = 0;                // bytes the active lanes asked for
  uint64_t sectors = 0;              // global: distinct 32-byte sectors touched, summed over requests
  uint64_t ideal_sectors = 0;        // global: ceil(active lanes * access width / 32), summed
  uint64_t wavefronts = 0;           // shared: passes through the 32 banks, summed (n-way conflict = n passes)
  uint64_t ideal_wavefronts = 0;     // shared: passes with no conflict (1; 2 for 8-byte, 4 for 16-byte accesses)
  uint64_t worst_ways = 0;           // shared: the largest n of an n-way conflict seen in one request
  uint64_t distinct_addresses = 0;   // atomics: distinct addresses per request, summed
  uint64_t same_address_lanes = 0;   // atomics: most lanes on one address per request, summed
  uint64_t multi_lane_requests = 0;  // requests with at least two active lanes
  int64_t lane_stride = 0;           // bytes between consecutive active lanes in the first multi-lane request
  bool uniform_stride = true;        // every multi-lane request had that same stride throughout
  unsigned width = 0;                // access width in bytes (the largest seen)
  // Requests whose lanes had run the site different numbers of times since the last barrier: they
  // are paired by count (each lane's k-th run), which puts lanes that skipped an earlier iteration
  // of a loop with the wrong iteration. Their counts are approximate (not what Nsight Compute counts).
  uint64_t approximate_requests = 0;
};

// Adds the totals of `from` (the same site, other requests) to `into`.
inline void add_counts(SiteCounts& into, const SiteCounts& from) {
  if (from.multi_lane_requests) {
    if (!into.multi_lane_requests) {
      into.lane_stride = from.lane_stride;
      into.uniform_stride = from.uniform_stride;
    } else if (!from.uniform_stride || from.lane_stride != into.lane_stride) {
      into.uniform_stride = false;
    }
  }
  into.requests += from.requests;
  into.lanes += from.lanes;
  into.lane_slots += from.lane_slots;
  into.bytes += from.bytes;
  into.sectors += from.sectors;
  into.ideal_sectors += from.ideal_sectors;
  into.wavefronts += from.wavefronts;
  into.ideal_wavefronts += from.ideal_wavefronts;
  into.worst_ways = into.worst_ways > from.worst_ways ? into.worst_ways : from.worst_ways;
  into.distinct_addresses += from.distinct_addresses;
  into.same_address_lanes += from.same_address_lanes;
  into.multi_lane_requests += from.multi_lane_requests;
  into.width = into.width > from.width ? into.width : from.width;
  into.approximate_requests += from.approximate_requests;
}

struct ProfiledSite {
  AccessSiteKind kind = AccessSiteKind::global_load;
  uintptr_t pc = 0;              // return address of the instrumentation call inside the kernel's code
  std::string object;            // the executable or library holding it
  uintptr_t object_address = 0;  // the address a symbolizer (addr2line -e object) takes for pc - 1
  SiteCounts counts;
};

// One launch configuration of a kernel and how often it was used.
struct ProfiledLaunchConfig {
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  uint64_t dynamic_shared = 0;  // bytes (third <<<>>> argument)
  uint64_t static_shared = 0;   // bytes of __shared__ variables a block allocated
  uint64_t launches = 0;
};

struct KernelProfile {
  std::string kernel;
  std::string file;  // of the first launch
  int line = 0;
  uint64_t launches = 0;
  uint64_t unprofiled_accesses = 0;  // dropped past the profile's memory budget
  // Large launches are sampled (GPULAB_PROFILE_BLOCKS): the counts are those of the profiled
  // blocks scaled by blocks / profiled_blocks. Equal when every block was profiled.
  uint64_t blocks = 0;
  uint64_t profiled_blocks = 0;
  std::vector<ProfiledLaunchConfig> configs;
  std::vector<ProfiledSite> sites;
};

// Every kernel profiled so far in this process (launches merged per kernel name); clears it.
std::vector<KernelProfile> take_profile();

}  // namespace gpulab::emu
