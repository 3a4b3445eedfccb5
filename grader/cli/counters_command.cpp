// `gpulab counters EMU.json GPU.json`: the memory requests per kernel that
// `gpulab grade --counters` recorded on the emulator and on a GPU (Nsight
// Compute), side by side as Markdown table rows, with differences over 10%
// marked: how docs/performance.md's agreement table is made.
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include <fmt/format.h>

#include "commands.hpp"
#include "profile/counters.hpp"

namespace gpulab::cli {
namespace {

struct CountersArgs {
  std::string emulator, gpu, label;
};

nlohmann::json load(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path + " is not a results file (gpulab grade --format json): " + e.what());
  }
}

int compare(const CountersArgs& a) {
  const nlohmann::json e = load(a.emulator), g = load(a.gpu);
  int rows = 0;
  for (const nlohmann::json& part : e.value("parts", nlohmann::json::array())) {
    if (!part.contains("counters")) continue;
    const std::string name = part.value("name", "");
    nlohmann::json other;
    for (const nlohmann::json& p : g.value("parts", nlohmann::json::array()))
      if (p.value("name", "") == name && p.contains("counters")) other = p["counters"];
    if (other.is_null()) {
      fmt::print(stderr, "gpulab: {} has no counters for part '{}' (grade it with --counters)\n", a.gpu, name);
      continue;
    }
    for (const nlohmann::json* c : {&part["counters"], static_cast<const nlohmann::json*>(&other)}) {
      if (!c->value("problem", "").empty())
        fmt::print(stderr, "gpulab: part '{}': {}\n", name, c->value("problem", ""));
    }
    const auto ek = part["counters"].value("kernels", profile::KernelCounters{});
    const auto gk = other.value("kernels", profile::KernelCounters{});
    const std::string label = (a.label.empty() ? e.value("submission", "") : a.label) + " (" + name + ")";
    const std::string table = profile::counters_table(label, ek, gk);
    std::fputs(table.c_str(), stdout);
    rows += !table.empty();
  }
  if (!rows) {
    fmt::print(stderr,
               "gpulab: nothing to compare: grade the same submission with --counters on both backends "
               "(--format json)\n");
    return 1;
  }
  return 0;
}

}  // namespace

void add_counters_command(CLI::App& app, Action& action) {
  auto a = std::make_shared<CountersArgs>();
  CLI::App* cmd = app.add_subcommand("counters",
                                     "Compare the memory-request counts of `grade --counters` runs on "
                                     "the emulator and on a GPU (Markdown rows)");
  cmd->add_option("emulator", a->emulator, "results file of `gpulab grade --counters --backend emu --format json`")
      ->required();
  cmd->add_option("gpu", a->gpu, "results file of the same on a GPU (--backend cuda)")->required();
  cmd->add_option("--label", a->label, "the table's first column (default: the submission's path)");
  cmd->callback([a, &action] { action = [a] { return compare(*a); }; });
}

}  // namespace gpulab::cli
