// No false alarms in the speed test: on the emulator, every timed call of a
// lab's reference and of each textbook kernel of its progression (lab.json's
// "bench"), each call on inputs no earlier call saw, must match the lab's
// checker within the part's bound, so every correct strategy the course
// teaches keeps its speed points. The timed cases are shrunk (1-D sizes to
// 65537, 2-D to 257, 3-D to 41; mask widths kept) in a copy of the project
// made of links, so that this runs in seconds; the comparison rules are the
// ones a GPU grading uses.
// Usage: check_timed_calls PROJECT_ROOT LAB
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "grade/harness_build.hpp"
#include "grade/performance.hpp"
#include "grade/submission_runner.hpp"
#include "lab/lab_spec.hpp"
#include "toolchain/toolchain.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {
// The largest size per dimension: the timed case of a d-dimensional part holds about 2^16 elements.
long long shrunk_size(size_t dimensions) {
  return static_cast<long long>(std::floor(std::pow(65536.0, 1.0 / static_cast<double>(dimensions)))) + 1;
}

json shrunk_lab(const json& lab) {
  json out = lab;
  for (json& part : out["parts"]) {
    if (!part.contains("performance")) continue;
    json& sizes = part["performance"]["sizes"];
    size_t dimensions = 0;
    for (auto& [name, value] : sizes.items()) dimensions += name.find("mask") == std::string::npos;
    for (auto& [name, value] : sizes.items()) {
      if (name.find("mask") == std::string::npos) value = std::min(value.get<long long>(), shrunk_size(dimensions));
    }
  }
  return out;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s PROJECT_ROOT LAB\n", argv[0]);
    return 2;
  }
  const fs::path root = argv[1];
  const std::string lab_name = argv[2];
  char home_template[] = "/tmp/gpulab-timed-calls-XXXXXX";
  if (!mkdtemp(home_template)) return 2;
  const fs::path home = home_template;
  for (const char* d : {"grader", "reference", "datasets", "skeletons"})
    fs::create_directory_symlink(root / d, home / d);
  fs::create_directories(home / "assignments" / lab_name);
  const json original = json::parse(std::ifstream(root / "assignments" / lab_name / "lab.json"));
  std::ofstream(home / "assignments" / lab_name / "lab.json") << shrunk_lab(original).dump(1);
  setenv("GPULAB_HOME", home.c_str(), 1);
  // The suite's shared cache where it names one (the builds are those of the lab tests' gradings,
  // and the shrunk timed cases are keyed by their own sizes), else one of this run's own.
  if (const char* shared = std::getenv("GPULAB_CACHE"); shared == nullptr || *shared == '\0') {
    const fs::path cache = home / "cache";
    setenv("GPULAB_CACHE", cache.c_str(), 1);
  }

  const gpulab::LabSpec lab = gpulab::load_lab_spec(home / "assignments" / lab_name / "lab.json");
  std::vector<std::string> files = {"reference/" + lab_name + "/" + lab_name + ".cu"};
  if (original.contains("bench"))
    for (const json& step : original["bench"].value("progression", json::array())) files.push_back(step.at("file"));

  gpulab::grade::GradeOptions options;
  options.backend = gpulab::toolchain::Backend::emu;
  options.performance = gpulab::grade::PerformanceMode::on;
  const gpulab::grade::SubmissionRunner runner(gpulab::sandbox::Mode::bwrap, options.backend);
  gpulab::grade::TrustedPrograms trusted(lab, options, runner);  // the reference, built once
  int failures = 0;
  for (const std::string& file : files) {
    gpulab::toolchain::BuildOptions b =
        gpulab::grade::harness_build_options(lab, options.backend, true, options.cuda_arch);
    b.run_compiler = runner.compile_runner(lab);
    const gpulab::toolchain::BuildResult built = gpulab::toolchain::build_program(root / file, b);
    if (!built.ok) {
      std::printf("FAILED: %s does not compile:\n%s\n", file.c_str(), built.compiler_output.c_str());
      ++failures;
      continue;
    }
    gpulab::grade::PerformanceScorer scorer(lab, options, home / "work", runner, trusted);
    for (const gpulab::PartSpec& part : lab.parts) {
      if (!part.performance) continue;
      const gpulab::grade::PerformanceResult r = scorer.measure(part, built.executable, true);
      const bool ok = r.status == gpulab::grade::PerformanceStatus::scored && r.review.empty() &&
                      r.calls_checked >= 13 && r.calls_checked == r.calls;
      std::printf("%s: %s part %s: %s, %d of %d calls checked, ratio %.2f (%s)\n", ok ? "ok" : "FAILED", file.c_str(),
                  part.name.c_str(), to_string(r.status).c_str(), r.calls_checked, r.calls, r.ratio,
                  r.case_label.c_str());
      if (!ok) {
        std::printf("  %s\n", r.feedback.c_str());
        ++failures;
      }
    }
  }
  std::error_code ec;
  fs::remove_all(home, ec);
  std::printf("%d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
