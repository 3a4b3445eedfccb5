// prebuild_submission: grading's own build step (grade/submission_build.hpp),
// inside the sandbox as in grading.
#include "prebuild.hpp"

#include <chrono>

#include "grade/harness_build.hpp"
#include "grade/submission_build.hpp"
#include "grade/submission_runner.hpp"

namespace gpulab::batch {
namespace fs = std::filesystem;

void prepare_lab_binding(const LabSpec& lab) { grade::write_binding(lab); }

PrebuildResult prebuild_submission(const LabSpec& lab, const fs::path& source, const grade::GradeOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  // The student's code compiles in the sandbox, as in grading.
  const grade::SubmissionRunner runner(o.sandbox, o.backend, grade::private_paths_of(source, o));
  // A failure of the race-checking build is the grader's to report, as it is in grading.
  const grade::SubmissionBuild built = grade::build_submission(lab, source, o, runner);
  PrebuildResult r;
  r.ok = built.program.ok;
  r.compiler_output = built.program.compiler_output;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace gpulab::batch
