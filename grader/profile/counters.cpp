// Emulator and Nsight Compute counters under one set of names (see counters.hpp).
#include "profile/counters.hpp"

#include <fmt/format.h>

#include <cmath>
#include <algorithm>
#include <set>
#include <sstream>

namespace gpulab::profile {
namespace {

using emu::AccessSiteKind;

constexpr const char* kGlobalLoadRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* kGlobalLoadSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* kGlobalStoreRequests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
constexpr const char* kGlobalStoreSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
constexpr const char* kSharedLoadWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
constexpr const char* kSharedLoadConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
constexpr const char* kSharedStoreWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
constexpr const char* kSharedStoreConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
constexpr const char* kGlobalAtom = "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum";
constexpr const char* kGlobalRed = "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum";
constexpr const char* kGlobalAtomics = "global atomic requests (atom + red)";

// CSV fields of one line, quotes removed.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out;
  std::string field;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) out.push_back(std::move(field)), field.clear();
    else field += c;
  }
  out.push_back(std::move(field));
  return out;
}

}  // namespace

const std::vector<std::string>& counter_metrics() {
  // Shared-memory instructions are compared by wavefronts, not by smsp__inst_executed_op_shared_*:
  // that counts a warp whose lanes are all predicated off (`if (threadIdx.x < 7) s[...] = 0` is
  // one instruction in each of a block's warps), while a warp with no active lane makes no request.
  static const std::vector<std::string> m = {
      kGlobalLoadRequests,  kGlobalLoadSectors,     kGlobalStoreRequests,  kGlobalStoreSectors, kSharedLoadWavefronts,
      kSharedLoadConflicts, kSharedStoreWavefronts, kSharedStoreConflicts, kGlobalAtom,         kGlobalRed};
  return m;
}

std::string ideal_of(const std::string& metric) { return "emulator ideal: " + metric; }

KernelCounters counters_of(const ProfileReport& report) {
  KernelCounters out;
  for (const KernelReport& k : report.kernels) {
    std::map<std::string, double>& c = out[k.kernel];
    for (const LineProfile& l : k.lines) {
      const emu::SiteCounts& s = l.counts;
      switch (l.kind) {
        case AccessSiteKind::global_load:
          c[kGlobalLoadRequests] += s.requests, c[kGlobalLoadSectors] += s.sectors;
          c[ideal_of(kGlobalLoadSectors)] += s.ideal_sectors;
          break;
        case AccessSiteKind::global_store:
          c[kGlobalStoreRequests] += s.requests, c[kGlobalStoreSectors] += s.sectors;
          c[ideal_of(kGlobalStoreSectors)] += s.ideal_sectors;
          break;
        case AccessSiteKind::shared_load:
          c[kSharedLoadWavefronts] += s.wavefronts;
          c[kSharedLoadConflicts] += s.wavefronts - s.ideal_wavefronts;
          break;
        case AccessSiteKind::shared_store:
          c[kSharedStoreWavefronts] += s.wavefronts, c[kSharedStoreConflicts] += s.wavefronts - s.ideal_wavefronts;
          break;
        case AccessSiteKind::global_atomic: c[kGlobalAtomics] += s.requests; break;
        case AccessSiteKind::shared_atomic: break;
      }
    }
  }
  return out;
}

KernelCounters parse_ncu_csv(const std::string& output) {
  KernelCounters out;
  std::istringstream in(output);
  int kernel = -1, metric = -1, value = -1;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] != '"') continue;  // ==PROF== lines and the program's output
    const std::vector<std::string> f = csv_fields(line);
    if (kernel < 0) {
      for (size_t i = 0; i < f.size(); ++i) {
        if (f[i] == "Kernel Name") kernel = static_cast<int>(i);
        if (f[i] == "Metric Name") metric = static_cast<int>(i);
        if (f[i] == "Metric Value") value = static_cast<int>(i);
      }
      continue;
    }
    if (static_cast<int>(f.size()) <= std::max({kernel, metric, value})) continue;
    std::string number;
    for (char c : f[value])
      if (c != ',') number += c;
    double v = 0;
    try {
      v = std::stod(number);
    } catch (const std::exception&) {
      continue;
    }
    std::string name = f[metric];
    if (name == kGlobalAtom || name == kGlobalRed) name = kGlobalAtomics;
    out[f[kernel]][name] += v;
  }
  return out;
}

// Kernels by their name without template arguments: the emulator names a launch as written
// (`k<true, BINS>`), Nsight Compute by its function (`k`); instantiations are summed.
KernelCounters by_base_name(const KernelCounters& in) {
  KernelCounters out;
  for (const auto& [kernel, counts] : in) {
    std::map<std::string, double>& to = out[kernel.substr(0, kernel.find('<'))];
    for (const auto& [metric, v] : counts) to[metric] += v;
  }
  return out;
}

std::string counters_table(const std::string& label, const KernelCounters& emulator_named,
                           const KernelCounters& gpu_named) {
  const KernelCounters emulator = by_base_name(emulator_named), gpu = by_base_name(gpu_named);
  std::string out;
  std::vector<std::string> order = counter_metrics();
  order.erase(order.end() - 2, order.end());
  order.push_back(kGlobalAtomics);
  for (const auto& [kernel, counts] : emulator) {
    const auto g = gpu.find(kernel);
    for (const std::string& m : order) {
      const auto e = counts.find(m);
      const double ev = e == counts.end() ? 0 : e->second;
      double gv = -1;
      if (g != gpu.end()) {
        const auto it = g->second.find(m);
        if (it != g->second.end()) gv = it->second;
      }
      if (ev == 0 && gv <= 0) continue;
      std::string diff = "not measured";
      if (gv >= 0) {
        const double d = gv == 0 ? (ev == 0 ? 0 : INFINITY) : 100.0 * (ev - gv) / gv;
        diff = std::isinf(d)       ? "**GPU: 0**"
               : std::fabs(d) > 10 ? fmt::format("**{:+.1f}%**", d)
                                   : fmt::format("{:+.1f}%", d);
      }
      out += fmt::format("| {} | {} | {} | {:.0f} | {} | {} |\n", label, kernel, m, ev,
                         gv >= 0 ? fmt::format("{:.0f}", gv) : std::string("-"), diff);
    }
  }
  return out;
}

}  // namespace gpulab::profile
