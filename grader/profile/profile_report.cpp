// Reading, merging and printing emulator profiles (see profile_report.hpp).
#include "profile/profile_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "gpulab/emu/profile_json.hpp"
#include "profile/profile_advice.hpp"
#include "profile/source_lines.hpp"

namespace gpulab::profile {
namespace {

using emu::AccessSiteKind;

// Sites of one line and kind are one row when they access memory the same way (the copies of
// an unrolled loop); different patterns stay apart (a[row * n + k] and b[k * n + col] on one line).
bool same_pattern(const emu::SiteCounts& a, const emu::SiteCounts& b) {
  if (a.width != b.width || a.uniform_stride != b.uniform_stride) return false;
  return !a.uniform_stride || a.lane_stride == b.lane_stride || !a.multi_lane_requests || !b.multi_lane_requests;
}

void add_line(std::vector<LineProfile>& lines, const LineProfile& l) {
  for (LineProfile& x : lines) {
    if (x.file == l.file && x.line == l.line && x.kind == l.kind && same_pattern(x.counts, l.counts)) {
      emu::add_counts(x.counts, l.counts);
      return;
    }
  }
  lines.push_back(l);
}

void add_config(std::vector<LaunchProfile>& configs, const LaunchProfile& c) {
  for (LaunchProfile& x : configs) {
    if (std::equal(x.config.grid, x.config.grid + 3, c.config.grid) &&
        std::equal(x.config.block, x.config.block + 3, c.config.block) &&
        x.config.dynamic_shared == c.config.dynamic_shared && x.config.static_shared == c.config.static_shared) {
      x.config.launches += c.config.launches;
      return;
    }
  }
  configs.push_back(c);
}

void sort_lines(KernelReport& k) {
  std::sort(k.lines.begin(), k.lines.end(), [](const LineProfile& a, const LineProfile& b) {
    return std::tie(a.file, a.line, a.kind) < std::tie(b.file, b.line, b.kind);
  });
}

const char* kind_label(AccessSiteKind kind) {
  constexpr const char* labels[] = {"global load", "global store", "global atomic",
                                    "shared load", "shared store", "shared atomic"};
  return labels[static_cast<int>(kind)];
}

// What one request costs at this line, and the ideal, in the unit of its kind.
std::string per_request(const LineProfile& l) {
  const emu::SiteCounts& c = l.counts;
  const double n = static_cast<double>(std::max<uint64_t>(1, c.requests));
  switch (l.kind) {
    case AccessSiteKind::global_load:
    case AccessSiteKind::global_store:
      return fmt::format("{:5.1f} sectors (contiguous {:.1f})", c.sectors / n, c.ideal_sectors / n);
    case AccessSiteKind::shared_load:
    case AccessSiteKind::shared_store:
      return fmt::format("{:5.1f} bank passes (no conflict {:.0f})", c.wavefronts / n, c.ideal_wavefronts / n);
    default: return fmt::format("{:5.1f} lanes on one address", c.same_address_lanes / n);
  }
}

// How consecutive active lanes' addresses differ: tells a[row * k + p] from b[p * n + col].
std::string stride_text(const emu::SiteCounts& c) {
  if (!c.multi_lane_requests) return "one lane";
  if (!c.uniform_stride) return "mixed";
  if (c.lane_stride == 0) return "same address";
  return fmt::format("{} B", c.lane_stride);
}

std::string config_text(const LaunchProfile& p, int registers) {
  const emu::ProfiledLaunchConfig& c = p.config;
  const unsigned threads = c.block[0] * c.block[1] * c.block[2];
  std::string text = fmt::format("grid ({},{},{}) x block ({},{},{}) = {} threads per block, {} B shared per block",
                                 c.grid[0], c.grid[1], c.grid[2], c.block[0], c.block[1], c.block[2], threads,
                                 c.dynamic_shared + c.static_shared);
  if (c.launches > 1) text += fmt::format(", {} launches", c.launches);
  if (p.occupancy) {
    const Occupancy& o = *p.occupancy;
    text += fmt::format("; occupancy {:.0f}% ({} blocks, {} warps per SM, limited by {}{})", 100 * o.fraction,
                        o.blocks_per_sm, o.active_warps, o.limited_by,
                        registers ? fmt::format("; {} registers per thread, from nvcc", registers)
                                  : std::string("; registers per thread are not known on the emulator and may "
                                                "lower it"));
  }
  return text;
}

}  // namespace

ProfileReport read_profile(const std::string& path, const std::string& arch,
                           const std::map<std::string, int>& registers, const std::string& program) {
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error("no profile was written at " + path +
                             " (the program ran no kernel, or "
                             "stopped before its first kernel finished)");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("the profile at " + path + " is not valid JSON: " + e.what());
  }
  std::vector<emu::KernelProfile> kernels = emu::kernels_of(j);
  if (!program.empty())
    for (emu::KernelProfile& k : kernels)
      for (emu::ProfiledSite& s : k.sites) s.object = program;
  // All addresses of one object in one addr2line run.
  std::map<std::string, std::set<uintptr_t>> wanted;
  for (const emu::KernelProfile& k : kernels)
    for (const emu::ProfiledSite& s : k.sites) wanted[s.object].insert(s.object_address);
  std::map<std::string, std::map<uintptr_t, SourceLine>> lines_of;
  for (const auto& [object, addresses] : wanted) {
    lines_of[object] = source_lines(object, std::vector<uintptr_t>(addresses.begin(), addresses.end()));
  }
  ProfileReport r;
  r.arch = arch;
  const std::optional<ArchLimits> limits = arch_limits(arch);
  for (const emu::KernelProfile& k : kernels) {
    KernelReport kr;
    kr.kernel = k.kernel;
    kr.file = k.file;
    kr.line = k.line;
    kr.launches = k.launches;
    kr.unprofiled_accesses = k.unprofiled_accesses;
    kr.blocks = k.blocks;
    kr.profiled_blocks = k.profiled_blocks;
    if (auto it = registers.find(k.kernel); it != registers.end()) kr.registers = it->second;
    for (const emu::ProfiledLaunchConfig& c : k.configs) {
      LaunchProfile p;
      p.config = c;
      if (limits) {
        p.occupancy = occupancy(*limits, c.block[0] * c.block[1] * c.block[2], c.dynamic_shared + c.static_shared,
                                static_cast<unsigned>(kr.registers));
      }
      add_config(kr.launches_by_config, p);
    }
    for (const emu::ProfiledSite& s : k.sites) {
      const SourceLine& where = lines_of[s.object][s.object_address];
      add_line(kr.lines, LineProfile{where.file, where.line, where.function, s.kind, s.counts});
    }
    sort_lines(kr);
    r.kernels.push_back(std::move(kr));
  }
  r.findings = find_problems(r.kernels);
  return r;
}

ProfileReport merge_profiles(const std::vector<ProfileReport>& reports) {
  ProfileReport r;
  for (const ProfileReport& p : reports) {
    r.arch = p.arch;
    r.source += (r.source.empty() || p.source.empty() ? "" : ", ") + p.source;
    for (const KernelReport& k : p.kernels) {
      auto it =
          std::find_if(r.kernels.begin(), r.kernels.end(), [&](const KernelReport& x) { return x.kernel == k.kernel; });
      if (it == r.kernels.end()) {
        r.kernels.push_back(k);
        continue;
      }
      it->launches += k.launches;
      it->unprofiled_accesses += k.unprofiled_accesses;
      it->blocks += k.blocks;
      it->profiled_blocks += k.profiled_blocks;
      for (const LaunchProfile& c : k.launches_by_config) add_config(it->launches_by_config, c);
      for (const LineProfile& l : k.lines) add_line(it->lines, l);
      sort_lines(*it);
    }
  }
  r.findings = find_problems(r.kernels);
  return r;
}

std::string profile_text(const ProfileReport& r, size_t max_findings) {
  std::ostringstream out;
  out << "Profile from the emulator (counted as Nsight Compute counts them on a GPU; " << r.arch
      << (r.source.empty() ? "" : "; " + r.source) << "):\n";
  if (r.kernels.empty()) out << "  no kernel ran\n";
  for (const KernelReport& k : r.kernels) {
    out << fmt::format("kernel '{}' launched at {}:{} ({} launch{}{})\n", k.kernel, base_name(k.file), k.line,
                       k.launches, k.launches == 1 ? "" : "es",
                       k.profiled_blocks < k.blocks
                           ? fmt::format("; counted in {} of {} blocks spread over the grid and scaled up",
                                         k.profiled_blocks, k.blocks)
                           : std::string());
    // The configurations with the most launches (then the largest grids); a count for the rest.
    std::vector<LaunchProfile> configs = k.launches_by_config;
    std::stable_sort(configs.begin(), configs.end(), [](const LaunchProfile& a, const LaunchProfile& b) {
      const auto blocks = [](const LaunchProfile& p) {
        return 1ull * p.config.grid[0] * p.config.grid[1] * p.config.grid[2];
      };
      return std::make_pair(a.config.launches, blocks(a)) > std::make_pair(b.config.launches, blocks(b));
    });
    for (size_t i = 0; i < configs.size() && i < 3; ++i) out << "  " << config_text(configs[i], k.registers) << "\n";
    if (configs.size() > 3) out << fmt::format("  ... and {} other launch configurations\n", configs.size() - 3);
    if (k.lines.empty()) {
      out << "  no access to global or shared memory\n";
      continue;
    }
    out << fmt::format("  {:>6}  {:<14} {:>10}  {:<36} {:<14} {}\n", "line", "access", "requests", "per request",
                       "lane stride", "active lanes");
    for (const LineProfile& l : k.lines) {
      out << fmt::format("  {:>6}  {:<14} {:>10}  {:<36} {:<14} {:.1f} of 32\n", l.line, kind_label(l.kind),
                         l.counts.requests, per_request(l), stride_text(l.counts),
                         32.0 * l.counts.lanes / std::max<double>(1, l.counts.lane_slots));
    }
    if (k.unprofiled_accesses) {
      out << fmt::format(
          "  ({} accesses were not counted: one block logged more between two barriers than the "
          "profile's memory allows; GPULAB_PROFILE_MB raises it)\n",
          k.unprofiled_accesses);
    }
  }
  const size_t hints =
      static_cast<size_t>(std::count_if(r.findings.begin(), r.findings.end(), [](const Finding& f) { return f.hint; }));
  if (hints == 0) {
    out << "No line wastes memory traffic: accesses are coalesced and free of bank conflicts.\n";
  } else {
    out << "Worst lines:\n";
    for (size_t i = 0; i < hints && i < max_findings; ++i) out << "  " << r.findings[i].sentence << "\n";
    if (hints > max_findings) {
      out << fmt::format(
          "  ... and {} more (all are in the JSON: `gpulab run --profile-json`, `gpulab grade "
          "--format json`)\n",
          hints - max_findings);
    }
  }
  if (r.findings.size() > hints) {
    out << fmt::format(
        "({} other observation{} (contended atomics, divergent warps, or approximate counts) {} not given as "
        "hints: the GPU's counters do not confirm them; they are in the JSON)\n",
        r.findings.size() - hints, r.findings.size() - hints == 1 ? "" : "s",
        r.findings.size() - hints == 1 ? "is" : "are");
  }
  return out.str();
}

std::string profile_hints(const ProfileReport& r, size_t max_findings) {
  std::string text;
  for (size_t i = 0; i < r.findings.size() && i < max_findings && r.findings[i].hint; ++i) {
    text += (i ? "\n" : "") + r.findings[i].sentence;
  }
  return text;
}

nlohmann::json profile_json(const ProfileReport& r) {
  static const char* problem_names[] = {"uncoalesced", "bank-conflicts", "atomic-contention", "divergence"};
  nlohmann::json kernels = nlohmann::json::array();
  for (const KernelReport& k : r.kernels) {
    nlohmann::json configs = nlohmann::json::array();
    for (const LaunchProfile& c : k.launches_by_config) {
      nlohmann::json j = c.config;
      if (c.occupancy) {
        j["occupancy"] = {{"fraction", c.occupancy->fraction},
                          {"blocks_per_sm", c.occupancy->blocks_per_sm},
                          {"active_warps", c.occupancy->active_warps},
                          {"limited_by", c.occupancy->limited_by},
                          {"registers_known", c.occupancy->registers_known}};
      }
      configs.push_back(std::move(j));
    }
    nlohmann::json lines = nlohmann::json::array();
    for (const LineProfile& l : k.lines) {
      // Base names: a results file must not depend on where the submission was staged.
      lines.push_back({{"file", base_name(l.file)},
                       {"line", l.line},
                       {"function", l.function},
                       {"kind", l.kind},
                       {"counts", l.counts}});
    }
    kernels.push_back({{"kernel", k.kernel},
                       {"file", base_name(k.file)},
                       {"line", k.line},
                       {"launches", k.launches},
                       {"unprofiled_accesses", k.unprofiled_accesses},
                       {"blocks", k.blocks},
                       {"profiled_blocks", k.profiled_blocks},
                       {"registers_per_thread", k.registers ? nlohmann::json(k.registers) : nlohmann::json()},
                       {"configs", std::move(configs)},
                       {"lines", std::move(lines)}});
  }
  nlohmann::json findings = nlohmann::json::array();
  for (const Finding& f : r.findings) {
    findings.push_back({{"problem", problem_names[static_cast<int>(f.problem)]},
                        {"kernel", f.kernel},
                        {"file", base_name(f.file)},
                        {"line", f.line},
                        {"kind", f.kind},
                        {"excess", f.excess},
                        {"message", f.sentence},
                        {"hint", f.hint},
                        {"unconfirmed", f.unconfirmed}});
  }
  return {{"arch", r.arch}, {"source", r.source}, {"kernels", std::move(kernels)}, {"findings", std::move(findings)}};
}

}  // namespace gpulab::profile
