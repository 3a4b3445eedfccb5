// Implementation of sanitize.hpp.
#include "grade/sanitize.hpp"

#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include "grade/case_runner.hpp"
#include "grade/sanitizer_report.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::grade {
namespace fs = std::filesystem;

fs::path cuda_tool_path(const std::string& name) {
  const fs::path nvcc = toolchain::nvcc_path();
  if (!nvcc.empty()) {
    const fs::path beside = nvcc.parent_path() / name;
    if (access(beside.c_str(), X_OK) == 0) return beside;
  }
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string d; std::getline(dirs, d, ':');) {
    const fs::path candidate = fs::path(d) / name;
    if (!d.empty() && access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return {};
}

fs::path compute_sanitizer_path() { return cuda_tool_path("compute-sanitizer"); }

const DatasetCase* largest_committed_case(const PartSpec& part, const Manifest& committed) {
  const DatasetCase* chosen = nullptr;
  double most = -1;
  for (const DatasetCase& c : committed.cases) {
    if (c.part != part.name) continue;
    double elements = 1;
    for (const auto& [name, v] : c.sizes) elements *= static_cast<double>(v);
    if (elements > most) {
      most = elements;
      chosen = &c;
    }
  }
  return chosen;
}

SanitizerResult sanitize_part(const PartSpec& part, const Manifest& committed, const fs::path& program,
                              const fs::path& work, const SubmissionRunner& runner) {
  SanitizerResult r;
  const DatasetCase* chosen = largest_committed_case(part, committed);
  if (!chosen) {
    r.problem = "no committed dataset case to run under compute-sanitizer";
    return r;
  }
  r.case_label = chosen->label();
  const fs::path sanitizer = compute_sanitizer_path();
  if (sanitizer.empty()) {
    r.problem =
        "compute-sanitizer was not found (looked next to nvcc and on PATH); install the CUDA toolkit's "
        "sanitizer or grade without --sanitize";
    return r;
  }
  for (const char* tool : {"memcheck", "racecheck", "synccheck", "initcheck"}) {
    const CaseRun run = run_harness_case(part, committed, *chosen, program, work / (std::string("sanitize-") + tool),
                                         runner, {{"no_guard_zones", true}}, std::max(120.0, 4 * part.time_limit_s),
                                         {sanitizer.string(), "--tool", tool, "--print-limit", "200"});
    for (const SanitizerFinding& f : parse_sanitizer_output(tool, run.child.output))
      r.findings.push_back(describe_finding(f));
    if (run.child.timed_out) {
      r.findings.push_back(std::string(tool) + ": did not finish in time; its findings may be incomplete");
    } else if (const std::string why =
                   sanitizer_incomplete(tool, run.child.output, run.child.exit_code, run.child.signal);
               !why.empty()) {
      r.findings.push_back(why);
    }
  }
  return r;
}

}  // namespace gpulab::grade
