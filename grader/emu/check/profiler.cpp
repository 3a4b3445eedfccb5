// Grouping of logged accesses into warp-level requests (see profiler.hpp).
#include "profiler.hpp"

#include <algorithm>
#include <cstdlib>

#include "access.hpp"
#include "launch_state.hpp"
#include "profile_store.hpp"
#include "warp_request.hpp"

namespace gpulab::emu::check {
namespace {

unsigned long long sample_setting() {
  // GPULAB_PROFILE_BLOCKS: blocks profiled per launch (0: all). Counting every access of every
  // block costs 10-40x a plain run; 128 blocks spread over the grid give the same per-request
  // figures for the regular grids of course kernels at a fraction of that.
  if (const char* v = std::getenv("GPULAB_PROFILE_BLOCKS"); v && *v) return std::strtoull(v, nullptr, 10);
  return 128;
}

size_t budget_entries() {
  // GPULAB_PROFILE_MB: memory for the logs of one block between two barriers (default 1 GiB).
  size_t mb = 1024;
  if (const char* v = std::getenv("GPULAB_PROFILE_MB"); v && *v) mb = std::strtoull(v, nullptr, 10);
  return (mb << 20) / sizeof(LoggedAccess);
}

AccessSiteKind kind_of(uint8_t flags, bool shared) {
  if (flags & kAtomic) return shared ? AccessSiteKind::shared_atomic : AccessSiteKind::global_atomic;
  if (flags & kWrite) return shared ? AccessSiteKind::shared_store : AccessSiteKind::global_store;
  return shared ? AccessSiteKind::shared_load : AccessSiteKind::global_load;
}

struct Keyed {
  int32_t pc;
  uint32_t occurrence;  // how many times this lane had been at pc before, since the last barrier
  uint8_t shared;
  uint8_t lane;
  uint32_t index;
  uint32_t total;     // how many times this lane was at pc in all, since the last barrier
  uintptr_t address;  // of the access (a merged vector access: its first byte)
  uint32_t size;
  bool operator<(const Keyed& o) const {
    if (pc != o.pc) return pc < o.pc;
    if (occurrence != o.occurrence) return occurrence < o.occurrence;
    if (shared != o.shared) return shared < o.shared;
    return lane < o.lane;
  }
  bool same_request(const Keyed& o) const { return pc == o.pc && occurrence == o.occurrence && shared == o.shared; }
};

thread_local std::vector<LaneAccess> request;
thread_local std::vector<Keyed> keyed;
// Each logged access's part in a vector access (group 1: none), per lane of the warp.
struct Role {
  uint8_t group = 1;
  uint8_t position = 0;
  bool operator==(const Role& o) const { return group == o.group && position == o.position; }
};
thread_local std::vector<std::vector<Role>> roles;
thread_local std::unordered_map<uint64_t, Role> consistent;  // (pc, occurrence) -> the lanes' common role
thread_local std::unordered_map<int32_t, uint32_t> seen;

}  // namespace

void Profiler::begin_launch() {
  sample_blocks_ = sample_setting();
  profiled_blocks_ = 0;
  sites_.clear();
  unprofiled_ = 0;
  static_shared_ = 0;
  budget_ = budget_entries();
}

bool Profiler::samples(unsigned long long block, unsigned long long total) const {
  if (sample_blocks_ == 0 || total <= sample_blocks_) return true;
  return (block * sample_blocks_) % total < sample_blocks_;  // exactly sample_blocks_, evenly spaced
}

void Profiler::begin_block(unsigned thread_count) {
  ++profiled_blocks_;
  threads_ = thread_count;
  if (logs_.size() < thread_count) logs_.resize(thread_count);
  for (unsigned t = 0; t < thread_count; ++t) logs_[t].clear();
  logged_ = 0;
}

void Profiler::flush() {
  for (unsigned first = 0; first < threads_; first += 32) group_warp(first, std::min(32u, threads_ - first));
  for (unsigned t = 0; t < threads_; ++t) logs_[t].clear();
  logged_ = 0;
}

void Profiler::end_block(size_t static_shared_bytes) {
  flush();
  static_shared_ = std::max(static_shared_, static_shared_bytes);
}

size_t Profiler::contiguous_run(unsigned first, unsigned lanes, size_t i) const {
  const std::vector<LoggedAccess>& lead = logs_[first];
  const LoggedAccess& h = lead[i];
  if (h.flags & (kAtomic | kVolatile)) return 1;
  size_t length = 1;
  for (size_t j = i + 1; j < lead.size() && j - i < 16; ++j) {
    const LoggedAccess& e = lead[j];
    bool ok = e.flags == h.flags && e.size == h.size && e.shared == h.shared;
    for (size_t m = i; m < j && ok; ++m) ok = lead[m].pc != e.pc;
    // Every lane's accesses i..j are distinct and cover one contiguous block.
    for (unsigned l = 0; l < lanes && ok; ++l) {
      const LoggedAccess* g = &logs_[first + l][i];
      uintptr_t lo = g[0].address;
      uintptr_t hi = lo;
      for (size_t k = 1; k <= j - i; ++k) {
        lo = std::min(lo, g[k].address);
        hi = std::max(hi, g[k].address);
      }
      ok = hi - lo == (j - i) * h.size;
      for (size_t k = 0; k <= j - i && ok; ++k)
        for (size_t m = k + 1; m <= j - i && ok; ++m) ok = g[k].address != g[m].address;
    }
    if (!ok) break;
    length = j - i + 1;
  }
  return length;
}

unsigned Profiler::vector_group(unsigned first, unsigned lanes, size_t i, size_t run) const {
  const unsigned size = logs_[first][i].size;
  for (const unsigned group : {4u, 2u}) {
    const unsigned total = size * group;
    if (run % group != 0 || total > 16 || total < 4 || (size & (size - 1)) != 0) continue;
    bool aligned = true;  // each group of `group` accesses covers one block aligned to its size, in every lane
    for (size_t g = i; g < i + run && aligned; g += group) {
      for (unsigned l = 0; l < lanes && aligned; ++l) {
        const LoggedAccess* e = &logs_[first + l][g];
        uintptr_t lo = e[0].address;
        for (unsigned k = 1; k < group; ++k) lo = std::min(lo, e[k].address);
        for (unsigned k = 0; k < group && aligned; ++k) aligned = e[k].address - lo < total;
        aligned = aligned && lo % total == 0;
      }
    }
    if (aligned) return group;
  }
  return 1;
}

void Profiler::group_warp(unsigned first, unsigned lanes) {
  const std::vector<LoggedAccess>& lead = logs_[first];
  // The common case: every lane made the same accesses in the same order (no divergence).
  bool lockstep = true;
  for (unsigned l = 1; l < lanes && lockstep; ++l) lockstep = logs_[first + l].size() == lead.size();
  for (size_t i = 0; i < lead.size() && lockstep; ++i) {
    for (unsigned l = 1; l < lanes; ++l) {
      const LoggedAccess& e = logs_[first + l][i];
      if (e.pc != lead[i].pc || e.shared != lead[i].shared) {
        lockstep = false;
        break;
      }
    }
  }
  if (lockstep) {
    for (size_t i = 0; i < lead.size();) {
      // A run of accesses that together cover contiguous memory in every lane is taken whole:
      // split into aligned vector accesses where it can be, else one by one.
      const size_t run = contiguous_run(first, lanes, i);
      const unsigned group = run > 1 ? vector_group(first, lanes, i, run) : 1;
      for (const size_t end = i + run; i < end; i += group) {
        request.clear();
        for (unsigned l = 0; l < lanes; ++l) {
          const LoggedAccess& e = logs_[first + l][i];
          uintptr_t base = e.address;
          for (unsigned k = 1; k < group; ++k) base = std::min(base, logs_[first + l][i + k].address);
          request.push_back(LaneAccess{base, e.size * group, l});
        }
        add_request(lead[i].pc, lead[i].flags, lead[i].shared, lanes, false);
      }
    }
    return;
  }
  // Divergent or uneven lanes: match each lane's k-th access at a code address with the others'.
  // Vector accesses split by g++ are found in each lane's log, and merged where every lane that
  // made the access merges it the same way.
  roles.resize(lanes);
  consistent.clear();
  for (unsigned l = 0; l < lanes; ++l) {
    const std::vector<LoggedAccess>& log = logs_[first + l];
    std::vector<Role>& role = roles[l];
    role.assign(log.size(), Role{});
    seen.clear();
    for (size_t i = 0; i < log.size();) {
      const size_t run = contiguous_run(first + l, 1, i);
      const unsigned group = run > 1 ? vector_group(first + l, 1, i, run) : 1;
      for (size_t k = 0; k < run; ++k) role[i + k] = Role{static_cast<uint8_t>(group), static_cast<uint8_t>(k % group)};
      i += run;
    }
    for (size_t i = 0; i < log.size(); ++i) {
      const uint64_t key = static_cast<uint64_t>(static_cast<uint32_t>(log[i].pc)) << 32 | seen[log[i].pc]++;
      const auto [it, fresh] = consistent.try_emplace(key, role[i]);
      if (!fresh && !(it->second == role[i])) it->second.group = 0;  // lanes disagree: no merging here
    }
  }
  keyed.clear();
  for (unsigned l = 0; l < lanes; ++l) {
    const std::vector<LoggedAccess>& log = logs_[first + l];
    std::vector<Role>& role = roles[l];
    // A group is merged only where each of its accesses is merged alike in every lane.
    seen.clear();
    std::vector<uint64_t> keys(log.size());
    for (size_t i = 0; i < log.size(); ++i) {
      keys[i] = static_cast<uint64_t>(static_cast<uint32_t>(log[i].pc)) << 32 | seen[log[i].pc]++;
    }
    for (size_t i = 0; i < log.size(); i += role[i].group) {
      bool merge = role[i].group > 1;
      for (size_t k = 0; k < role[i].group && merge; ++k) merge = consistent[keys[i + k]].group == role[i].group;
      if (!merge)
        for (size_t k = 0; k < role[i].group; ++k) role[i + k] = Role{};
    }
    seen.clear();
    const size_t from = keyed.size();
    for (uint32_t i = 0; i < log.size(); i += role[i].group) {
      uintptr_t base = log[i].address;
      for (unsigned k = 1; k < role[i].group; ++k) base = std::min(base, log[i + k].address);
      keyed.push_back(Keyed{log[i].pc, seen[log[i].pc]++, log[i].shared, static_cast<uint8_t>(l), i, 0, base,
                            static_cast<uint32_t>(log[i].size * role[i].group)});
    }
    for (size_t k = from; k < keyed.size(); ++k) keyed[k].total = seen[keyed[k].pc];
  }
  std::sort(keyed.begin(), keyed.end());
  for (size_t i = 0; i < keyed.size();) {
    request.clear();
    size_t j = i;
    bool approximate = false;
    for (; j < keyed.size() && keyed[j].same_request(keyed[i]); ++j) {
      request.push_back(LaneAccess{keyed[j].address, keyed[j].size, keyed[j].lane});
      approximate |= keyed[j].total != keyed[i].total;
    }
    const LoggedAccess& e = logs_[first + keyed[i].lane][keyed[i].index];
    add_request(e.pc, e.flags, e.shared, lanes, approximate);
    i = j;
  }
}

void Profiler::add_request(int32_t pc, uint8_t flags, bool shared, unsigned lane_slots, bool approximate) {
  const AccessSiteKind kind = kind_of(flags, shared);
  const uint64_t key = static_cast<uint64_t>(static_cast<uint32_t>(pc)) << 3 | static_cast<uint64_t>(kind);
  SiteCounts& c = sites_[key];
  const LaneAccess* lanes = request.data();
  const size_t n = request.size();
  ++c.requests;
  c.approximate_requests += approximate;
  c.lanes += n;
  c.lane_slots += lane_slots;
  for (size_t i = 0; i < n; ++i) {
    c.bytes += lanes[i].size;
    c.width = std::max<unsigned>(c.width, lanes[i].size);
  }
  if (!shared) {
    const GlobalRequestCost g = global_request_cost(lanes, n);
    c.sectors += g.sectors;
    c.ideal_sectors += g.ideal_sectors;
  } else if (kind != AccessSiteKind::shared_atomic) {
    const SharedRequestCost s = shared_request_cost(lanes, n);
    c.wavefronts += s.wavefronts;
    c.ideal_wavefronts += s.ideal_wavefronts;
    c.worst_ways = std::max<uint64_t>(c.worst_ways, s.worst_ways);
  }
  if (flags & kAtomic) {
    const AtomicSpread a = atomic_spread(lanes, n);
    c.distinct_addresses += a.distinct_addresses;
    c.same_address_lanes += a.most_on_one_address;
  }
  if (n >= 2) {
    const LaneStride s = lane_stride(lanes, n);
    if (c.multi_lane_requests++ == 0) {
      c.lane_stride = s.bytes;
      c.uniform_stride = s.uniform;
    } else if (!s.uniform || s.bytes != c.lane_stride) {
      c.uniform_stride = false;
    }
  }
}

void Profiler::end_launch(const LaunchState& launch) {
  const unsigned long long total = launch.total_blocks;
  if (profiled_blocks_ && profiled_blocks_ < total) {  // sampled: scale to the whole grid
    const double f = static_cast<double>(total) / static_cast<double>(profiled_blocks_);
    for (auto& [key, c] : sites_) {
      for (uint64_t* v : {&c.requests, &c.lanes, &c.lane_slots, &c.bytes, &c.sectors, &c.ideal_sectors, &c.wavefronts,
                          &c.ideal_wavefronts, &c.distinct_addresses, &c.same_address_lanes, &c.multi_lane_requests,
                          &c.approximate_requests}) {
        *v = static_cast<uint64_t>(static_cast<double>(*v) * f + 0.5);
      }
    }
  }
  add_launch_to_profile(launch, sites_, static_shared_, unprofiled_, total, profiled_blocks_);
  sites_.clear();
}

}  // namespace gpulab::emu::check
