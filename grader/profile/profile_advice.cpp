// Thresholds and sentences of the profile's findings (see profile_advice.hpp).
// A line is reported when it wastes at least a quarter more than the ideal
// (and at least 1% of its kernel's traffic of that kind, so that a line run
// once does not make a hint): 1.25x the sectors its bytes need, 1.25x the bank passes, more than two lanes
// per address on average for atomics; or, for divergence, when fewer than half
// of the warp's lanes are active where it is reached, the line carries at least
// 5% of the kernel's requests, and it is not work meant for one lane (an
// average of 1.5 lanes or fewer: `if (threadIdx.x == 0)`, a warp's leader).
#include "profile/profile_advice.hpp"

#include "profile/source_lines.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace gpulab::profile {
namespace {

using emu::AccessSiteKind;

std::string where(const KernelReport& k, const LineProfile& l) {
  return fmt::format("{}:{} (kernel '{}')", base_name(l.file), l.line, k.kernel);
}

const char* verb(AccessSiteKind kind) {
  switch (kind) {
    case AccessSiteKind::global_store:
    case AccessSiteKind::shared_store: return "store";
    case AccessSiteKind::global_atomic:
    case AccessSiteKind::shared_atomic: return "atomic";
    default: return "load";
  }
}

std::string stride_cause(const emu::SiteCounts& c, const char* reads) {
  if (!c.multi_lane_requests || !c.uniform_stride) {
    return fmt::format("the lanes {} addresses scattered over memory", reads);
  }
  const long long stride = std::llabs(c.lane_stride);
  const unsigned width = std::max(1u, c.width);
  if (stride == width) {
    return fmt::format(
        "consecutive threads {} consecutive elements, but a warp spans several rows of the block "
        "(a block narrower than 32 threads) or starts in the middle of a sector; blocks 32 threads "
        "wide (blockDim.x = 32) keep a warp on one row",
        reads);
  }
  if (stride % width == 0) {
    return fmt::format("consecutive threads {} addresses {} bytes apart (one {}-byte element in every {})", reads,
                       stride, width, stride / width);
  }
  return fmt::format("consecutive threads {} addresses {} bytes apart", reads, stride);
}

// The sectors (global kinds) or bank passes (shared kinds) of every line of the kernel of this kind.
uint64_t kernel_traffic(const KernelReport& k, AccessSiteKind kind) {
  uint64_t n = 0;
  for (const LineProfile& l : k.lines)
    if (l.kind == kind) n += emu::is_shared(kind) ? l.counts.wavefronts : l.counts.sectors;
  return n;
}

void uncoalesced(const KernelReport& k, const LineProfile& l, std::vector<Finding>& out) {
  const emu::SiteCounts& c = l.counts;
  if (!c.requests || c.sectors * 4 < c.ideal_sectors * 5) return;
  if ((c.sectors - c.ideal_sectors) * 100 < kernel_traffic(k, l.kind)) return;  // under 1% of the kernel's
  const double per = static_cast<double>(c.sectors) / c.requests;
  const double ideal = static_cast<double>(c.ideal_sectors) / c.requests;
  Finding f;
  f.problem = Problem::uncoalesced;
  f.excess = static_cast<double>(c.sectors - c.ideal_sectors);
  const bool load = l.kind == AccessSiteKind::global_load;
  f.sentence = fmt::format(
      "{}: each warp's {} touches {:.1f} sectors of 32 bytes where {:.1f} would do ({:.1f}x the memory traffic): {}{}",
      where(k, l), verb(l.kind), per, ideal, per / ideal, stride_cause(c, load ? "read" : "write"),
      c.uniform_stride && std::llabs(c.lane_stride) == std::max(1u, c.width)
          ? std::string(".")
          : fmt::format("; make threadIdx.x index the fastest-moving (last) dimension of the array, or {} through "
                        "shared memory so that the global access is contiguous.",
                        load ? "load a tile with consecutive threads on consecutive elements and read it"
                             : "stage the results"));
  out.push_back(std::move(f));
}

void bank_conflicts(const KernelReport& k, const LineProfile& l, std::vector<Finding>& out) {
  const emu::SiteCounts& c = l.counts;
  if (!c.requests || c.wavefronts * 4 < c.ideal_wavefronts * 5) return;
  if ((c.wavefronts - c.ideal_wavefronts) * 100 < kernel_traffic(k, l.kind)) return;  // under 1% of the kernel's
  const double passes = static_cast<double>(c.wavefronts) / c.requests;
  const double ideal = static_cast<double>(c.ideal_wavefronts) / c.requests;
  Finding f;
  f.problem = Problem::bank_conflicts;
  f.excess = static_cast<double>(c.wavefronts - c.ideal_wavefronts);
  std::string cause = "several lanes of a warp hit different words of the same bank";
  if (c.multi_lane_requests && c.uniform_stride && c.lane_stride != 0 && std::llabs(c.lane_stride) % 128 == 0) {
    cause = fmt::format(
        "consecutive threads are {} bytes apart, a multiple of 128 (32 banks of 4 bytes), so "
        "they all fall in the same bank",
        std::llabs(c.lane_stride));
  } else if (c.multi_lane_requests && c.uniform_stride && c.lane_stride != 0) {
    cause = fmt::format("consecutive threads are {} bytes apart, so several of them fall in the same bank",
                        std::llabs(c.lane_stride));
  }
  f.sentence = fmt::format(
      "{}: each shared-memory {} of a warp takes {:.1f} passes through the banks where {:.0f} would do "
      "(up to a {}-way bank conflict): {}; pad the array so that those lanes fall in different banks (a 2-D "
      "tile one column wider, e.g. [32][33]; a 1-D array indexed i + i / 32) or let threadIdx.x walk the last "
      "index.",
      where(k, l), verb(l.kind), passes, ideal, c.worst_ways, cause);
  out.push_back(std::move(f));
}

void contention(const KernelReport& k, const LineProfile& l, std::vector<Finding>& out) {
  const emu::SiteCounts& c = l.counts;
  if (!c.requests || c.same_address_lanes <= 2 * c.requests) return;
  const double same = static_cast<double>(c.same_address_lanes) / c.requests;
  Finding f;
  f.problem = Problem::atomic_contention;
  f.excess = static_cast<double>(c.same_address_lanes - c.requests);
  const bool shared = emu::is_shared(l.kind);
  f.sentence = fmt::format(
      "{}: on average {:.1f} lanes of each warp atomically update the same {} address, and those updates are "
      "done one after another; {}.",
      where(k, l), same, shared ? "shared-memory" : "global",
      shared ? "give each warp its own copy of the counters, or combine a warp's values first (e.g. with "
               "__shfl_down_sync) and let one lane update"
             : "accumulate in a register or a shared-memory copy first (privatisation) and issue one global "
               "atomic per block or warp");
  out.push_back(std::move(f));
}

void divergence(const KernelReport& k, const LineProfile& l, uint64_t kernel_requests, std::vector<Finding>& out) {
  const emu::SiteCounts& c = l.counts;
  if (!c.requests || c.lanes * 2 >= c.lane_slots) return;  // at least half the lanes work
  if (c.lanes * 2 <= c.requests * 3) return;               // one lane on purpose (1.5 or fewer)
  if (c.requests * 20 < kernel_requests) return;           // under 5% of the kernel's requests
  const double active = 32.0 * static_cast<double>(c.lanes) / static_cast<double>(c.lane_slots);
  Finding f;
  f.problem = Problem::divergence;
  f.excess = static_cast<double>(c.lane_slots - c.lanes) / 32.0;
  f.sentence = fmt::format(
      "{}: only {:.1f} of 32 lanes are active on average when a warp reaches this {}: the threads of a warp take "
      "different paths (e.g. `if (threadIdx.x % stride == 0)`), and the idle lanes cost the warp as much as busy "
      "ones; arrange the work so that whole warps are busy or idle together (e.g. `if (threadIdx.x < stride)`).",
      where(k, l), active, verb(l.kind));
  out.push_back(std::move(f));
}

const emu::SiteCounts& counts_of_line(const std::vector<KernelReport>& kernels, const Finding& f) {
  static const emu::SiteCounts none;
  for (const KernelReport& k : kernels) {
    if (k.kernel != f.kernel) continue;
    for (const LineProfile& l : k.lines)
      if (l.file == f.file && l.line == f.line && l.kind == f.kind) return l.counts;
  }
  return none;
}

// Whether the finding's pattern is one whose counts agree with Nsight Compute (see the header).
void confirm(Finding& f, const emu::SiteCounts& c) {
  switch (f.problem) {
    case Problem::bank_conflicts:
#if defined(__clang__)
      // The toolchain compiles the checking build with the compiler gpulab was built with. With
      // clang, shared-memory accesses reach the checking runtime otherwise than the source writes
      // them (a float4 load split into four, loads merged or moved by its optimiser), and
      // tests/profile/hints_confirmed.sh found bank-conflict counts on the scan's and the
      // convolution's kernels that Nsight Compute does not confirm: no bank-conflict hints there.
      f.hint = false;
      f.unconfirmed =
          "gpulab was built with clang, whose code gives shared-memory bank-conflict counts that a GPU's counters "
          "do not confirm (docs/profile-agreement.md)";
      break;
#endif
      [[fallthrough]];
    case Problem::uncoalesced:
      if (c.approximate_requests * 10 > c.requests) {
        f.hint = false;
        f.unconfirmed =
            "the lanes of a warp ran this access different numbers of times (a loop whose lanes skip different "
            "iterations), so its requests are paired by count and their counts are approximate";
      }
      break;
    case Problem::atomic_contention:
      f.hint = false;
      f.unconfirmed = "lanes per atomic address are not a counter Nsight Compute gives, so no GPU confirms it";
      break;
    case Problem::divergence:
      f.hint = false;
      f.unconfirmed = "active lanes per access are not a counter Nsight Compute gives, so no GPU confirms it";
      break;
  }
}

}  // namespace

std::vector<Finding> find_problems(const std::vector<KernelReport>& kernels) {
  std::vector<Finding> out;
  for (const KernelReport& k : kernels) {
    uint64_t kernel_requests = 0;
    for (const LineProfile& l : k.lines) kernel_requests += l.counts.requests;
    for (const LineProfile& l : k.lines) {
      const size_t before = out.size();
      if (l.kind == AccessSiteKind::global_load || l.kind == AccessSiteKind::global_store) uncoalesced(k, l, out);
      if (emu::is_shared(l.kind) && l.kind != AccessSiteKind::shared_atomic) bank_conflicts(k, l, out);
      if (l.kind == AccessSiteKind::global_atomic || l.kind == AccessSiteKind::shared_atomic) contention(k, l, out);
      divergence(k, l, kernel_requests, out);
      for (size_t i = before; i < out.size(); ++i) {
        out[i].kernel = k.kernel;
        out[i].file = l.file;
        out[i].line = l.line;
        out[i].kind = l.kind;
      }
    }
  }
  for (Finding& f : out) {
    confirm(f, counts_of_line(kernels, f));
    // A line of the emulator's own headers: the emulator's code for an asynchronous copy writing
    // shared memory (cp.async, cuda::memcpy_async), which a GPU makes through its copy path, not as
    // a warp's load or store; Nsight Compute's shared-memory counters do not count it, and the
    // student's file has no such line to change.
    if (f.file.find("/gpulab/emu/") != std::string::npos) {
      f.hint = false;
      f.unconfirmed =
          "the access is the emulator's own code for an asynchronous copy into shared memory, which a GPU makes "
          "through its copy path rather than as a warp's access, so no GPU counter confirms it";
    }
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Finding& a, const Finding& b) { return a.hint != b.hint ? a.hint : a.excess > b.excess; });
  // One finding per problem and line (a divergent branch shows at each of its accesses).
  std::vector<Finding> unique;
  for (Finding& f : out) {
    const bool seen = std::any_of(unique.begin(), unique.end(), [&](const Finding& u) {
      return u.problem == f.problem && u.kernel == f.kernel && u.file == f.file && u.line == f.line;
    });
    if (!seen) unique.push_back(std::move(f));
  }
  return unique;
}

}  // namespace gpulab::profile
