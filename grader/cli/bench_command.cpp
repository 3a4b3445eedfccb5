// `gpulab bench LAB [FILE...]`: time the lab's reference (and, with --variants,
// the course's progression of textbook kernels, and any given files) against
// the library baseline on this machine's GPU, and print the table.
#include <ctime>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/bench_run.hpp"
#include "bench/bench_table.hpp"
#include "commands.hpp"

namespace gpulab::cli {
namespace {
struct BenchArgs {
  std::string lab;
  std::vector<std::string> files;
  std::vector<std::string> sizes;
  std::vector<std::string> parts;
  bool variants = false;
  bool no_reference = false;
  bool no_cache = false;
  bool build_only = false;
  std::string arch = "sm_90";
  std::string format = "text";
  std::string out;
  unsigned long long seed = 1;
};

std::string today() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
  return buf;
}

int run(const BenchArgs& a, const std::string& command) {
  bench::BenchOptions o;
  o.lab = a.lab;
  o.files = a.files;
  o.parts = a.parts;
  o.variants = a.variants;
  o.reference = !a.no_reference;
  o.arch = a.arch;
  o.use_cache = !a.no_cache;
  o.seed = a.seed;
  o.build_only = a.build_only;
  for (const std::string& s : a.sizes) o.sizes.push_back(bench::parse_size_override(s));
  const bench::BenchReport r = bench::run_bench(o);
  if (a.build_only) {
    for (const auto& i : r.result.at("built"))
      fmt::print("{}: {}\n", i.at("name").get<std::string>(), i.at("library").get<std::string>());
    fmt::print("bench program: {}\n", r.result.at("program").get<std::string>());
    return 0;
  }
  std::string text;
  if (a.format == "json") {
    nlohmann::json j = r.result;
    j["lab"] = r.lab;
    j["date"] = today();
    j["command"] = command;
    j["implementations"] = nlohmann::json::array();
    for (const auto& i : r.implementations)
      j["implementations"].push_back({{"name", i.impl.name}, {"file", i.impl.file}, {"role", i.role}});
    for (size_t c = 0; c < r.cases.size() && c < j["cases"].size(); ++c) {
      j["cases"][c]["part"] = r.cases[c].part;
      j["cases"][c]["label"] = r.cases[c].label;
      j["cases"][c]["sizes"] = r.cases[c].sizes;
      j["cases"][c]["bytes"] = r.cases[c].bytes;
      j["cases"][c]["flops"] = r.cases[c].flops;
    }
    text = j.dump(2) + "\n";
  } else {
    text = bench::format_bench_table(r, a.format == "markdown", command, today());
  }
  if (a.out.empty()) {
    std::fputs(text.c_str(), stdout);
  } else {
    std::ofstream f(a.out);
    f << text;
    if (!f) {
      fmt::print(stderr, "gpulab: cannot write '{}' (does its folder exist?)\n", a.out);
      return 4;
    }
  }
  if (!bench::bench_all_correct(r)) {
    fmt::print(stderr, "gpulab bench: some implementation failed or gave a wrong output (see the notes)\n");
    return 1;
  }
  return 0;
}
}  // namespace

void add_bench_command(CLI::App& app, Action& action) {
  auto a = std::make_shared<BenchArgs>();
  CLI::App* cmd = app.add_subcommand(
      "bench",
      "Time a lab's reference (and its textbook progression, or your files) against the library baseline on a GPU");
  cmd->add_option("lab", a->lab, "the lab (a folder of assignments/)")->required();
  cmd->add_option("files", a->files, "more implementations to time (.cu files defining the lab's host functions)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--sizes", a->sizes,
                  "replace the benchmark sizes, e.g. --sizes n=1048576 or --sizes m=4096,n=4096,k=4096 (repeatable)");
  cmd->add_option("--part", a->parts, "only this part (repeatable)");
  cmd->add_flag("--variants", a->variants, "also time the course's progression of textbook kernels");
  cmd->add_flag("--no-reference", a->no_reference, "leave out the lab's reference solution");
  cmd->add_option("--format", a->format, "text (default), markdown (for docs) or json")
      ->check(CLI::IsMember({"text", "markdown", "json"}));
  cmd->add_option("--out", a->out, "write the table here instead of stdout");
  cmd->add_option("--arch", a->arch, "GPU architecture to compile for (default sm_90)");
  cmd->add_option("--seed", a->seed, "seed of the generated inputs (default 1)");
  cmd->add_flag("--no-cache", a->no_cache, "recompile even if an identical build is cached");
  cmd->add_flag("--build-only", a->build_only,
                "only compile the implementations and the bench program (no GPU needed)");
  cmd->callback([a, cmd, &action] {
    std::string command = "gpulab bench " + a->lab;
    for (const auto& f : a->files) command += " " + f;
    for (const auto& s : a->sizes) command += " --sizes " + s;
    for (const auto& p : a->parts) command += " --part " + p;
    if (a->variants) command += " --variants";
    if (a->no_reference) command += " --no-reference";
    (void)cmd;
    action = [a, command] { return run(*a, command); };
  });
}

}  // namespace gpulab::cli
