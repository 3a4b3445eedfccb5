// Running one dataset case of one part in a child process: the request the
// harness reads, the run under the part's limits, the emulator's findings,
// the harness's result.json, and the comparison of what it wrote with the
// expected outputs (which stay in the grader, never in the child).
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "grade/failure_kind.hpp"
#include "grade/harness_report.hpp"
#include "grade/host_work.hpp"
#include "grade/stop_reason.hpp"
#include "process/run.hpp"
#include "data/dataset.hpp"
#include "lab/lab_spec.hpp"
#include "submission_runner.hpp"

namespace gpulab::grade {

struct CaseRun {
  std::filesystem::path dir;  // the case's work folder (outputs, result.json)
  process::ProcessResult child;
  std::optional<HarnessReport> report;           // the harness's result.json, when it was read (any status)
  std::string failure;                           // why the run cannot be compared (timeout, crash, CUDA error, ...)
  FailureKind failure_kind = FailureKind::none;  // the same as a kind; none while `failure` is empty
  // For the instructor: what the program did that the grade cannot trust (a malformed report, a
  // system call the harness refuses); empty when nothing. The run's failure says it to the student.
  std::string review;
  // The harness says it failed before calling the submission (status harness_error), in its words.
  // From a trusted program (the reference, a probe) that is the grader's problem; from a
  // submission's process the caller first checks that a trusted program runs (trusted_run.hpp).
  std::string harness_error;
  std::vector<std::string> diagnostics;      // the emulator's findings, at most 3 plus a count
  std::string race;                          // the first data race found, if any
  StopReason stopped_by = StopReason::none;  // the limit that stopped the run, if one did
  // The emulator profile the checking build wrote (GPULAB_EMU_PROFILE), when it wrote one.
  std::filesystem::path profile_file;
  // Seconds the grader spent reading back what the child left (file checks, findings, report);
  // measurement only (`gpulab grade --timings`).
  double read_s = 0;
  // A child that ran several cases and stopped after this one because the next needs a fresh
  // process (the submission's state changed, the device may be in an error state): why.
  std::string fresh_process;

  // `text` followed by the emulator's findings, one per line.
  std::string with_diagnostics(std::string text) const;
};

// The run goes through `runner` (the sandbox, with the part's limits). `extra` is merged into
// the request (e.g. "timing", "recheck"; files it names must be in `more_inputs`, the only other
// files the run may read); `time_limit_s` 0 means the part's; `wrapper` runs the program under
// another (compute-sanitizer --tool ...); `profile` asks the emulator's checking build for its
// profile too (CaseRun::profile_file): sampled as for hints, or every block (to compare with a GPU).
enum class Profiling { off, sampled, every_block };

// Several cases of one part, run one after another in one child (harness_main.cpp), each with its
// own folder, result, outputs and findings, and its own time limit (the part's: the whole run gets
// that many times it). Returns a CaseRun for each case the child finished, and for the one it ended
// in (a crash, a timeout, a limit), in order: fewer than `cases` when it ended early or asked for a
// fresh process; the caller runs the rest in another child.
struct CaseInBatch {
  const Manifest* manifest;
  const DatasetCase* dataset_case;
};
std::vector<CaseRun> run_harness_cases(const PartSpec& part, const std::vector<CaseInBatch>& cases,
                                       const std::filesystem::path& program, const std::filesystem::path& work,
                                       const SubmissionRunner& runner,
                                       const nlohmann::json& extra = nlohmann::json::object(), double time_limit_s = 0,
                                       const std::vector<std::string>& wrapper = {},
                                       const std::vector<std::filesystem::path>& more_inputs = {},
                                       Profiling profile = Profiling::off);

CaseRun run_harness_case(const PartSpec& part, const Manifest& m, const DatasetCase& c,
                         const std::filesystem::path& program, const std::filesystem::path& work,
                         const SubmissionRunner& runner, const nlohmann::json& extra = nlohmann::json::object(),
                         double time_limit_s = 0, const std::vector<std::string>& wrapper = {},
                         const std::vector<std::filesystem::path>& more_inputs = {},
                         Profiling profile = Profiling::off);

// The kind of failure a harness status other than ok says (missing_function, cuda_error, ...).
FailureKind harness_failure_kind(HarnessStatus status);

}  // namespace gpulab::grade
