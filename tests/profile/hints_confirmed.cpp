// Checks that every hint a graded file gets on the emulator is one the GPU's counters confirm:
// the committed agreement table (docs/profile-agreement.md, Nsight Compute's counts of the same
// file, part and kernel on the largest committed case, the case the hints come from) must show
// that kernel's count of the hint's metric (global sectors, shared-memory bank conflicts) within
// 10% of the emulator's, and the hint's line must keep its waste (at least 1.25x its ideal, the
// threshold of a hint) even if the whole difference between the two counts were on that line.
// Usage: hints_confirmed AGREEMENT_MD LABEL RESULTS_JSON, LABEL as the table names the file
// ("reduction/reduction"), RESULTS_JSON from `gpulab grade LAB FILE --counters --format json`.
// Prints one line per hint; exits 1 when one is not confirmed, 2 on unusable input.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Table = std::map<std::string, double>;  // "label (part)|kernel|metric" -> Nsight Compute's count

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string base_kernel(const std::string& k) { return k.substr(0, k.find('<')); }

Table read_table(const std::string& path) {
  Table t;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| ", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream cs(line.substr(1));
    for (std::string cell; std::getline(cs, cell, '|');) cells.push_back(trim(cell));
    if (cells.size() < 5 || cells[4].empty() || cells[4] == "-") continue;
    try {
      t[cells[0] + "|" + cells[1] + "|" + cells[2]] = std::stod(cells[4]);
    } catch (const std::exception&) {}
  }
  return t;
}

const char* kLoadSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
const char* kStoreSectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: hints_confirmed AGREEMENT_MD LABEL RESULTS_JSON\n");
    return 2;
  }
  const Table gpu = read_table(argv[1]);
  const std::string label = argv[2];
  nlohmann::json results;
  try {
    std::ifstream in(argv[3]);
    results = nlohmann::json::parse(in);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hints_confirmed: %s is not a results file: %s\n", argv[3], e.what());
    return 2;
  }
  int hints = 0, unconfirmed = 0;
  const nlohmann::json parts = results.value("parts", nlohmann::json::array());
  for (const auto& part : parts) {
    const std::string row = label + " (" + part.value("name", "") + ")";
    if (!part.contains("profile")) continue;
    // The emulator's counts of the table's case, by kernel without template arguments.
    std::map<std::string, std::map<std::string, double>> emulator;
    const nlohmann::json counted = part.contains("counters")
                                       ? part["counters"].value("kernels", nlohmann::json::object())
                                       : nlohmann::json::object();
    for (const auto& [kernel, metrics] : counted.items())
      for (const auto& [metric, value] : metrics.items()) emulator[base_kernel(kernel)][metric] += value.get<double>();
    const nlohmann::json findings = part["profile"].value("findings", nlohmann::json::array());
    for (const auto& f : findings) {
      if (!f.value("hint", true)) continue;
      ++hints;
      const std::string kernel = base_kernel(f.value("kernel", "")), problem = f.value("problem", ""),
                        kind = f.value("kind", "");
      const auto count = [&](const std::string& metric) {
        const auto it = gpu.find(row + "|" + kernel + "|" + metric);
        return it == gpu.end() ? -1.0 : it->second;
      };
      // The finding's line and its kernel in the profile (the same case, sampled).
      double line_count = 0, line_ideal = 0, profile_total = 0;
      const bool global = problem == "uncoalesced";
      const char* count_key = global ? "sectors" : "wavefronts";
      const char* ideal_key = global ? "ideal_sectors" : "ideal_wavefronts";
      for (const auto& k : part["profile"].value("kernels", nlohmann::json::array())) {
        if (base_kernel(k.value("kernel", "")) != kernel) continue;
        for (const auto& l : k.value("lines", nlohmann::json::array())) {
          if (l.value("kind", "") != kind) continue;
          const nlohmann::json& c = l.at("counts");
          const double n = c.value(count_key, 0.0), ideal = c.value(ideal_key, 0.0);
          profile_total += global ? n : n - ideal;
          if (l.value("file", "") == f.value("file", "") && l.value("line", 0) == f.value("line", 0)) {
            line_count += n;
            line_ideal += ideal;
          }
        }
      }
      std::string why;
      const auto judge = [&](const std::string& metric, double g, double e) {
        if (g < 0) return "the table has no GPU count of " + metric;
        if (std::fabs(e - g) > 0.1 * g) {
          return "the emulator counts " + std::to_string(static_cast<long long>(e)) + " of " + metric + ", the GPU " +
                 std::to_string(static_cast<long long>(g));
        }
        // At worst the whole difference is on this line: what the GPU must still show there.
        const double slack = e > 0 ? std::fabs(e - g) * profile_total / e : 0;
        const double waste = global ? line_count - slack - line_ideal : (line_count - line_ideal) - slack;
        if (waste < 0.25 * line_ideal) {
          return "with the emulator's and the GPU's difference (" +
                 std::to_string(static_cast<long long>(std::fabs(e - g))) +
                 ") all on this line, it would be within 1.25x of its ideal";
        }
        return std::string();
      };
      if (global && (kind == "global_load" || kind == "global_store")) {
        const std::string metric = kind == "global_load" ? kLoadSectors : kStoreSectors;
        why = judge(metric, count(metric), emulator[kernel][metric]);
      } else if (problem == "bank-conflicts" && (kind == "shared_load" || kind == "shared_store")) {
        const std::string conflicts = std::string("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_") +
                                      (kind == "shared_load" ? "ld" : "st") + ".sum";
        why = judge(conflicts, count(conflicts), emulator[kernel][conflicts]);
      } else {
        why = "a " + problem + " hint on a " + kind + ": no GPU counter in the table measures it";
      }
      const std::string where = f.value("file", "") + ":" + std::to_string(f.value("line", 0));
      if (why.empty()) {
        std::printf("confirmed: %s, kernel %s, %s %s at %s\n", row.c_str(), kernel.c_str(), problem.c_str(),
                    kind.c_str(), where.c_str());
      } else {
        ++unconfirmed;
        std::printf("NOT CONFIRMED: %s, kernel %s, %s %s at %s: %s\n  hint: %s\n", row.c_str(), kernel.c_str(),
                    problem.c_str(), kind.c_str(), where.c_str(), why.c_str(), f.value("message", "").c_str());
      }
    }
  }
  std::printf("%s: %d hint%s, %d not confirmed by the GPU's counters\n", label.c_str(), hints, hints == 1 ? "" : "s",
              unconfirmed);
  return unconfirmed ? 1 : 0;
}
