// The programs of a grading that no submission touched: the lab's reference
// solution built with the harness or, where it is not installed (a student
// kit), the lab's checker built as a complete submission of its own. The
// speed scorer probes the device and times the reference with them; the case
// runner asks one, when a submission's process says the harness itself
// failed, whether the harness works here at all: only then is it the
// grader's problem and not the submission's doing.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

#include "data/dataset.hpp"
#include "grade/grading.hpp"
#include "grade/submission_runner.hpp"
#include "lab/lab_spec.hpp"

namespace gpulab::grade {

class TrustedPrograms {
 public:
  // Builds go through `runner`, which must outlive this.
  TrustedPrograms(const LabSpec& lab, const GradeOptions& options, const SubmissionRunner& runner);

  // The reference's program (built once); an empty path and `problem` when it is not installed
  // (problem empty) or does not compile (problem says why).
  const std::filesystem::path& reference(std::string& problem);
  // The reference, or else the lab's checker as a complete submission; an empty path and the
  // reason when neither can be built here.
  const std::filesystem::path& any(std::string& problem);
  // `source` built with the harness; an empty path and `problem` when it does not compile.
  std::filesystem::path build(const std::filesystem::path& source, const std::string& what, std::string& problem);

  // A submission's run of case `c` said the harness failed before calling it (`harness_error`).
  // Runs a trusted program on the same case in `work`: when that fails too, throws
  // files::GraderError (the installation's problem, never a student's score); when it runs, returns
  // why the submission's report is not believed, for its case's feedback and the review.
  std::string check_harness_failure(const PartSpec& part, const Manifest& m, const DatasetCase& c,
                                    const std::string& harness_error, const std::filesystem::path& work);

 private:
  const LabSpec& lab_;
  GradeOptions options_;
  const SubmissionRunner& runner_;
  std::optional<std::filesystem::path> reference_, any_;
  std::string reference_problem_, any_problem_;
};

}  // namespace gpulab::grade
