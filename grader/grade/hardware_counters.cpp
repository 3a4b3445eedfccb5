// Counting one case's memory requests on either backend (see hardware_counters.hpp).
#include "grade/hardware_counters.hpp"

#include <fstream>
#include <sstream>

#include "grade/case_runner.hpp"
#include "grade/sanitize.hpp"

namespace gpulab::grade {
namespace fs = std::filesystem;

CounterResult count_part(const PartSpec& part, const Manifest& committed, const fs::path& program, const fs::path& work,
                         const SubmissionRunner& runner, toolchain::Backend backend, const std::string& arch) {
  CounterResult r;
  const DatasetCase* chosen = largest_committed_case(part, committed);
  if (!chosen) {
    r.problem = "no committed dataset case to count";
    return r;
  }
  r.case_label = chosen->label();
  if (program.empty()) {
    r.problem = "this build of gpulab has no profiling (checking) build for the emulator";
    return r;
  }
  const double limit = std::max(120.0, 4 * part.time_limit_s);
  if (backend == toolchain::Backend::emu) {
    r.source = "emulator";
    const CaseRun run = run_harness_case(part, committed, *chosen, program, work, runner, nlohmann::json::object(),
                                         limit, {}, {}, Profiling::every_block);
    if (run.profile_file.empty()) {
      r.problem = "the profiling build wrote no profile" + (run.failure.empty() ? "" : ": " + run.failure);
      return r;
    }
    r.kernels = profile::counters_of(profile::read_profile(run.profile_file.string(), arch, {}, program.string()));
    return r;
  }
  r.source = "Nsight Compute";
  const fs::path ncu = cuda_tool_path("ncu");
  if (ncu.empty()) {
    r.problem = "ncu (Nsight Compute) was not found next to nvcc or on PATH";
    return r;
  }
  std::string metrics;
  for (const std::string& m : profile::counter_metrics()) metrics += (metrics.empty() ? "" : ",") + m;
  const fs::path log = work / (std::string("ncu-") + chosen->id + ".csv");
  fs::create_directories(work);
  const CaseRun run = run_harness_case(part, committed, *chosen, program, work, runner, nlohmann::json::object(), limit,
                                       {ncu.string(), "--metrics", metrics, "--csv", "--print-units", "base",
                                        "--print-kernel-base", "function", "--log-file", log.string()});
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  r.kernels = profile::parse_ncu_csv(text.str());
  if (r.kernels.empty()) r.problem = "ncu counted nothing: " + run.child.output.substr(0, 2000);
  return r;
}

}  // namespace gpulab::grade
