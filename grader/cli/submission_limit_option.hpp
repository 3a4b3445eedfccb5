// `gpulab grade ... --max-submissions-per-day N --submission-metadata FILE`,
// what Gradescope's run_autograder passes when the bundle has a submission
// limit: the limit is decided before any grading (grader/bundle/
// submission_limit.hpp). Over it, the carried-forward results are written and
// grade exits 8; otherwise the submission is graded and the note on the limit
// heads the results' output. A metadata file that is missing or unreadable
// never costs a grading: the submission is graded and the output says why the
// limit was not applied.
#pragma once
#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "bundle/submission_limit.hpp"

namespace gpulab::cli {

struct SubmissionLimitArgs {
  int max_per_day = 0;   // 0: no limit
  std::string metadata;  // Gradescope's submission_metadata.json
};

struct SubmissionLimitCheck {
  bundle::SubmissionMetadata metadata;  // empty when it could not be read
  bundle::LimitDecision decision;
};

void add_submission_limit_options(CLI::App* cmd, SubmissionLimitArgs& a);

// nullopt without a limit. Throws std::runtime_error (bad input, exit 2) when a limit is asked
// for with a --format other than gradescope. Prints one line for the instructor's log (stderr).
std::optional<SubmissionLimitCheck> check_submission_limit(const SubmissionLimitArgs& a, const std::string& format);

}  // namespace gpulab::cli
