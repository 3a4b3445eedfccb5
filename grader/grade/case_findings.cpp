// Implementation of case_findings.hpp.
#include "grade/case_findings.hpp"

#include "data/npy_io.hpp"
#include "grade/compare.hpp"

namespace gpulab::grade {
namespace fs = std::filesystem;

std::vector<Problem> harness_findings(const CallInspection& call, long long kernel_launches,
                                      const HostWorkPolicy& policy, const InputVolume& inputs) {
  std::vector<Problem> problems;
  if (kernel_launches == 0) {
    problems.push_back({FailureKind::no_kernel,
                        "no kernel was launched: the host function must do its work on the GPU with a kernel launch"});
    return problems;
  }
  if (call.transfers) {
    if (std::optional<Problem> p = host_work_problem(*call.transfers, policy, inputs)) problems.push_back(*p);
  }
  for (const std::string& name : call.inputs_modified) {
    problems.push_back({FailureKind::input_modified, "input '" + name + "' was modified: inputs are read-only"});
  }
  for (const GuardOverrun& g : call.guard_overruns) {
    problems.push_back({FailureKind::out_of_bounds, "out-of-bounds write " + g.where + " buffer '" + g.buffer + "'"});
  }
  return problems;
}

std::vector<Problem> compare_case_outputs(const PartSpec& part, const Manifest& m, const DatasetCase& c,
                                          const fs::path& dir, const std::string& prefix) {
  std::vector<Problem> problems;
  for (const ParamSpec& p : part.params) {
    if (p.role != ParamRole::output) continue;
    const CaseFile* ef = c.file("expected", p.name);
    if (!ef) throw DatasetError("case " + c.id + " has no expected output '" + p.name + "'");
    // The grader's own files mapped, not copied: a large case's expected output and its bound are
    // hundreds of megabytes.
    const NdArray expected = map_case_file(m, *ef);
    const CaseFile* sf = c.file("scale", p.name);
    NdArray scale;
    if (sf) scale = map_case_file(m, *sf);
    NdArray got;
    try {
      // Copied, not mapped: the submission's file (a mapping of a file that shrinks under it would
      // end the grader with SIGBUS).
      got = read_npy(dir / (prefix + p.name + ".npy"));
    } catch (const DatasetError& e) {
      problems.push_back(
          {FailureKind::missing_output, std::string("output '") + p.name + "' was not produced: " + e.what()});
      continue;
    }
    const CompareOutcome r =
        compare_output(part.check, p.name, expected, got, sf ? &scale : nullptr, !p.initially_zero);
    if (!r.passed) problems.push_back({FailureKind::wrong_answer, r.message});
  }
  return problems;
}

}  // namespace gpulab::grade
