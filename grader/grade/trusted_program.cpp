// Implementation of trusted_program.hpp.
#include "grade/trusted_program.hpp"

#include "files/grader_error.hpp"
#include "grade/case_runner.hpp"
#include "grade/submission_build.hpp"

namespace gpulab::grade {
namespace fs = std::filesystem;

TrustedPrograms::TrustedPrograms(const LabSpec& lab, const GradeOptions& options, const SubmissionRunner& runner)
    : lab_(lab), options_(options), runner_(runner) {}

fs::path TrustedPrograms::build(const fs::path& source, const std::string& what, std::string& problem) {
  const toolchain::BuildResult built = build_harness_program(lab_, source, options_, runner_);
  if (built.ok) return built.executable;
  problem = what + " (" + source.string() + ") does not compile on this installation:\n" + built.compiler_output;
  return {};
}

const fs::path& TrustedPrograms::reference(std::string& problem) {
  if (!reference_) {
    const fs::path source = toolchain::project_root() / "reference" / lab_.lab / (lab_.lab + ".cu");
    reference_ = fs::exists(source) ? build(source, "the reference solution", reference_problem_) : fs::path();
  }
  problem = reference_problem_;
  return *reference_;
}

const fs::path& TrustedPrograms::any(std::string& problem) {
  if (!any_) {
    any_ = reference(any_problem_);
    const fs::path checker = toolchain::project_root() / lab_.checker_file;
    if (any_->empty() && any_problem_.empty() && !lab_.checker_file.empty() && fs::exists(checker)) {
      any_ = build(checker, "the lab's checker", any_problem_);
    }
    if (any_->empty() && any_problem_.empty()) {
      any_problem_ = "neither the reference nor the lab's checker is installed here";
    }
  }
  problem = any_problem_;
  return *any_;
}

std::string TrustedPrograms::check_harness_failure(const PartSpec& part, const Manifest& m, const DatasetCase& c,
                                                   const std::string& harness_error, const fs::path& work) {
  std::string problem;
  const fs::path& trusted = any(problem);
  if (trusted.empty()) {
    // Nothing to compare with: the harness's word is all there is, and a grader problem must never
    // become a student's score.
    throw files::GraderError(harness_error + " (and " + problem + ", so this cannot be checked)");
  }
  const CaseRun run = run_harness_case(part, m, c, trusted, work, runner_);
  if (!run.failure.empty() || !run.review.empty()) {
    throw files::GraderError(harness_error + "; " + trusted.filename().string() +
                             ", a program no submission touched, fails the same case too: " + run.failure);
  }
  return "the program said the grading harness failed before calling its host function (\"" + harness_error +
         "\"), but the harness runs this case without trouble for " +
         (trusted == reference(problem) ? std::string("the reference solution") : std::string("the lab's checker"));
}

}  // namespace gpulab::grade
