// The build step of grading: a submission (or the reference) compiled with the
// lab's harness inside the sandbox and, on the emulator with the race check on,
// its race-checking build too. grade_submission, the batch's prebuild and the
// speed scorer's reference builds all go through here, so they build with the
// same options and a prebuilt submission is a cache hit when graded.
#pragma once
#include <filesystem>
#include <optional>

#include "audit/audit.hpp"
#include "grade/grading.hpp"
#include "grade/submission_runner.hpp"
#include "lab/lab_spec.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::grade {

struct SubmissionBuild {
  toolchain::BuildResult object;            // the submission alone, compiled to an object (audited)
  std::optional<audit::AuditResult> audit;  // the object's audit, before it was linked; none when it did not compile
  toolchain::BuildResult program;           // the harness build, run for every case
  std::filesystem::path race_program;       // the race-checking build; empty when not built or it failed
  double seconds = 0;                       // compiling both (the checker object and binding not counted)
};

// The harness build of `source` for options.backend, compiled by the runner's sandbox.
toolchain::BuildResult build_harness_program(const LabSpec& lab, const std::filesystem::path& source,
                                             const GradeOptions& options, const SubmissionRunner& runner);
// The submission compiled alone to an object, audited (grader/audit/), the harness program linked
// around it (the harness first) and, where it compiled, on the emulator with options.race_check, the race-checking
// build, the same way (its failure is left to the cases: they run the plain build). A failed
// compile or link is `program` not ok, with the compiler's words.
SubmissionBuild build_submission(const LabSpec& lab, const std::filesystem::path& source, const GradeOptions& options,
                                 const SubmissionRunner& runner);

}  // namespace gpulab::grade
