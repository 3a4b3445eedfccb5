// What a case's run found besides a crash or a timeout: the harness's own findings after the call
// (no kernel launched, a result that came from the host, modified inputs, guard overruns) and the
// outputs it wrote compared with the case's expected ones (compare.hpp). The correctness cases
// (part_cases.cpp) and the speed runs (performance_runs.cpp) judge a run the same way.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "data/dataset.hpp"
#include "grade/failure_kind.hpp"
#include "grade/harness_report.hpp"
#include "grade/host_work.hpp"
#include "lab/lab_spec.hpp"

namespace gpulab::grade {

// Compares the outputs the harness wrote as <prefix><name>.npy in `dir` with case `c`'s expected
// outputs; one problem each (wrong_answer, missing_output), none when all match.
std::vector<Problem> compare_case_outputs(const PartSpec& part, const Manifest& m, const DatasetCase& c,
                                          const std::filesystem::path& dir, const std::string& prefix);

// The harness's own findings after a call: no kernel launched (`kernel_launches` 0), modified inputs,
// guard overruns, and against `policy` (lab.json's "host_work") a result that came from the host
// (more bytes reached host memory than the policy allows for `inputs`: host_work.hpp).
std::vector<Problem> harness_findings(const CallInspection& call, long long kernel_launches,
                                      const HostWorkPolicy& policy, const InputVolume& inputs);
}  // namespace gpulab::grade
