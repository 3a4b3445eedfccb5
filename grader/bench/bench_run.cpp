// Building and running the bench program.
#include "bench_run.hpp"

#include <cstdlib>
#include <fstream>
#include <future>
#include <stdexcept>

#include <fmt/format.h>

#include "files/atomic_file.hpp"
#include "files/grader_error.hpp"
#include "files/temp_folder.hpp"
#include "grade/grading.hpp"
#include "process/run.hpp"
#include "harness/binding_generator.hpp"
#include "toolchain/content_hash.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::bench {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The lab's binding plus a C entry point through which the bench program finds
// the table in each library it loads.
std::string write_bench_binding(const LabSpec& lab) {
  const std::string text = harness::generate_binding(lab) +
                           "\nextern \"C\" const gpulab::harness::PartBinding* gpulab_bench_bindings(size_t* count) {\n"
                           "  *count = gpulab::harness::part_binding_count;\n"
                           "  return gpulab::harness::part_bindings;\n}\n";
  const fs::path dir = toolchain::cache_directory() / "bindings";
  fs::create_directories(dir);
  const fs::path file = dir / ("bench-" + lab.lab + "-" + toolchain::ContentHash().add(text).hex() + ".cpp");
  if (!fs::exists(file)) files::write_file_atomically(file, text);  // never half a file in the cache
  return file.string();
}

fs::path resolve_file(const std::string& file, bool from_root) {
  const fs::path p = from_root ? toolchain::project_root() / file : fs::path(file);
  if (!fs::is_regular_file(p)) throw std::runtime_error("cannot find '" + p.string() + "'");
  return p;
}

// Runs the program with this process's stdout and stderr (its progress lines show as it goes).
int run_inheriting(const std::vector<std::string>& argv) {
  process::ProcessOptions o;
  o.capture_output = false;
  const process::ProcessResult r = process::run(argv, o);
  if (!r.started()) throw files::GraderError("cannot start the bench program " + argv.front() + ": " + r.spawn_error);
  return r.status();
}

}  // namespace

BenchReport run_bench(const BenchOptions& o) {
  const LabSpec lab = grade::load_lab(o.lab);  // a mistake in lab.json is reported first, GPU or not
  const BenchSpec spec = load_bench_spec(lab);
  if (!toolchain::cuda_backend_available()) {
    throw std::runtime_error(
        "gpulab bench measures on a GPU with the cuda backend, and this build of gpulab found no "
        "nvcc; run it on a machine with the CUDA toolkit and an NVIDIA GPU (the emulator's "
        "timings say nothing about a GPU)");
  }
  if (!o.build_only && !process::nvidia_gpu_visible()) {
    throw std::runtime_error(
        "gpulab bench measures on an NVIDIA GPU, and none is visible here (`nvidia-smi -L` "
        "fails); run it on the GPU machine (--build-only compiles without one)");
  }
  BenchReport report;
  report.lab = lab.lab;
  report.cases = resolve_cases(lab, spec, o.parts, o.sizes);
  if (report.cases.empty()) throw std::runtime_error("nothing to measure: no case matches the chosen parts and sizes");

  // The implementations, in the order of the table.
  report.implementations.push_back({spec.baseline, "baseline", true});
  if (o.reference)
    report.implementations.push_back(
        {{"reference", "reference/" + lab.lab + "/" + lab.lab + ".cu", {}}, "reference", true});
  if (o.variants) {
    if (spec.progression.empty())
      throw std::runtime_error("lab '" + lab.lab + "' lists no progression in lab.json's \"bench\"");
    for (const Implementation& p : spec.progression) report.implementations.push_back({p, "progression", true});
  }
  for (const std::string& f : o.files)
    report.implementations.push_back({{fs::path(f).filename().string(), f, {}}, "file", true});
  int checker = spec.baseline_computes_output ? 0 : -1;
  if (spec.checker) {
    checker = -1;
    for (size_t i = 0; i < report.implementations.size(); ++i)
      if (report.implementations[i].impl.file == spec.checker->file) checker = static_cast<int>(i);
    if (checker < 0) {
      report.implementations.push_back({*spec.checker, "checker", false});
      checker = static_cast<int>(report.implementations.size()) - 1;
    }
  }

  // Build everything at once (nvcc is slow, the GPU machine has cores).
  const fs::path grader_dir = toolchain::project_root() / "grader";
  const std::string binding = write_bench_binding(lab);
  std::vector<std::future<toolchain::BuildResult>> builds;
  fmt::print(stderr, "gpulab bench: building {} implementations and the bench program (cached after the first time)\n",
             report.implementations.size());
  for (const BenchImplementation& bi : report.implementations) {
    const fs::path source = resolve_file(bi.impl.file, bi.role != "file");
    toolchain::BuildOptions b;
    b.backend = toolchain::Backend::cuda;
    b.cuda_arch = o.arch;
    b.use_cache = o.use_cache;
    b.shared_library = true;
    b.libraries = bi.impl.libraries;
    b.include_dirs = {grader_dir.string()};
    b.extra_sources = {binding};
    builds.push_back(std::async(std::launch::async, [source, b] { return toolchain::build_program(source, b); }));
  }
  toolchain::BuildOptions mb;
  mb.backend = toolchain::Backend::cuda;
  mb.cuda_arch = o.arch;
  mb.use_cache = o.use_cache;
  mb.libraries = {"dl"};
  mb.include_dirs = {grader_dir.string()};
  for (const char* f :
       {"harness/device_checks.cu", "harness/timed_runs.cpp", "data/value_generators.cpp", "data/nd_array.cpp"}) {
    mb.extra_sources.push_back(grader_dir / f);
  }
  const toolchain::BuildResult main_build = toolchain::build_program(grader_dir / "bench" / "bench_main.cpp", mb);
  if (!main_build.ok) throw std::runtime_error("the bench program did not compile:\n" + main_build.compiler_output);
  json impls = json::array();
  for (size_t i = 0; i < builds.size(); ++i) {
    const toolchain::BuildResult r = builds[i].get();
    const BenchImplementation& bi = report.implementations[i];
    if (!r.ok) {
      throw std::runtime_error("'" + bi.impl.file + "' (" + bi.impl.name + ") did not compile for the cuda backend:\n" +
                               r.compiler_output);
    }
    const bool checks = !(bi.role == "baseline" && !spec.baseline_computes_output);
    impls.push_back(
        {{"name", bi.impl.name}, {"library", r.executable.string()}, {"check", checks}, {"timed", bi.shown}});
  }
  if (o.build_only) {
    report.result = {{"built", impls}, {"program", main_build.executable.string()}};
    return report;
  }

  const files::TempFolder work("bench");
  const fs::path request_path = work / "request.json";
  const fs::path result_path = work / "result.json";
  json request = {{"result", result_path.string()}, {"seed", o.seed}, {"implementations", impls}, {"checker", checker}};
  request["cases"] = json::array();
  for (const ResolvedCase& c : report.cases) {
    request["cases"].push_back(
        {{"part", c.part}, {"label", c.label}, {"params", c.params}, {"exact", c.exact}, {"tolerance", c.tolerance}});
  }
  std::ofstream(request_path) << request.dump(1) << "\n";
  const int rc = run_inheriting({main_build.executable.string(), "--request", request_path.string()});
  std::ifstream in(result_path);
  if (!in) {
    throw std::runtime_error("the bench program ended (exit code " + std::to_string(rc) + ") without writing a result");
  }
  report.result = json::parse(in);
  if (report.result.contains("error")) throw std::runtime_error(report.result.at("error").get<std::string>());
  return report;
}

}  // namespace gpulab::bench
