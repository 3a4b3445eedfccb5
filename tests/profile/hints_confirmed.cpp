// Checks that every hint a graded file gets on the emulator is one the GPU's counters confirm:
// the committed agreement table (docs/profile-agreement.md, Nsight Compute's counts of the same
// file, part and kernel on the largest committed case) must show that kernel's counts of the
// hint's metric within 10% of the emulator's (the emulator counts it as the GPU does) and the
// same waste on the GPU (at least 1.25x the ideal, the threshold of a hint).
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
  for (const auto& part : results.value("parts", nlohmann::json::array())) {
    const std::string row = label + " (" + part.value("name", "") + ")";
    if (!part.contains("profile")) continue;
    // The emulator's counts of the table's case, by kernel without template arguments.
    std::map<std::string, std::map<std::string, double>> emulator;
    if (part.contains("counters"))
      for (const auto& [kernel, metrics] : part["counters"].value("kernels", nlohmann::json::object()).items())
        for (const auto& [metric, value] : metrics.items())
          emulator[base_kernel(kernel)][metric] += value.get<double>();
    for (const auto& f : part["profile"].value("findings", nlohmann::json::array())) {
      if (!f.value("hint", true)) continue;
      ++hints;
      const std::string kernel = base_kernel(f.value("kernel", "")), problem = f.value("problem", ""),
                        kind = f.value("kind", "");
      const auto count = [&](const std::string& metric) {
        const auto it = gpu.find(row + "|" + kernel + "|" + metric);
        return it == gpu.end() ? -1.0 : it->second;
      };
      std::string why;
      if (problem == "uncoalesced" && (kind == "global_load" || kind == "global_store")) {
        const std::string metric = kind == "global_load" ? kLoadSectors : kStoreSectors;
        const double g = count(metric), e = emulator[kernel][metric],
                     ideal = emulator[kernel]["emulator ideal: " + metric];
        if (g < 0) why = "the table has no GPU count of " + metric;
        else if (std::fabs(e - g) > 0.1 * g)
          why = "the emulator counts " + std::to_string(e) + ", the GPU " + std::to_string(g);
        else if (g < 1.25 * ideal)
          why = "the GPU's " + std::to_string(g) + " sectors are within 1.25x the ideal " + std::to_string(ideal);
      } else if (problem == "bank-conflicts" && (kind == "shared_load" || kind == "shared_store")) {
        const std::string op = kind == "shared_load" ? "ld" : "st";
        const std::string wave = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_" + op + ".sum",
                          conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_" + op + ".sum";
        const double gw = count(wave), gc = std::max(0.0, count(conflicts)), ec = emulator[kernel][conflicts];
        if (gw < 0) why = "the table has no GPU count of " + wave;
        else if (std::fabs(ec - gc) > 0.1 * gc)
          why = "the emulator counts " + std::to_string(ec) + " bank conflicts, the GPU " + std::to_string(gc);
        else if (gw < 1.25 * (gw - gc)) why = "the GPU's wavefronts are within 1.25x of conflict-free";
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
