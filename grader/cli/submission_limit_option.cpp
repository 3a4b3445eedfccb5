// The submission limit's options of `gpulab grade` and the decision taken before grading.
#include "submission_limit_option.hpp"

#include <cstdio>
#include <stdexcept>

#include <fmt/format.h>

#include "files/utf8_text.hpp"

namespace gpulab::cli {

void add_submission_limit_options(CLI::App* cmd, SubmissionLimitArgs& a) {
  CLI::Option* limit =
      cmd->add_option("--max-submissions-per-day", a.max_per_day,
                      "grade at most N submissions per student in any 24 hours, counted from Gradescope's "
                      "submission_metadata.json (--submission-metadata); beyond it the last graded results are "
                      "carried forward (exit 8). Needs --format gradescope")
          ->check(CLI::Range(1, 1000000));
  CLI::Option* file = cmd->add_option("--submission-metadata", a.metadata,
                                      "Gradescope's submission_metadata.json (/autograder/submission_metadata.json)");
  limit->needs(file);
  file->needs(limit);
}

std::optional<SubmissionLimitCheck> check_submission_limit(const SubmissionLimitArgs& a, const std::string& format) {
  if (a.max_per_day <= 0) return std::nullopt;
  if (format != "gradescope") {
    throw std::runtime_error(
        "--max-submissions-per-day needs --format gradescope (it carries Gradescope results "
        "forward), not --format " +
        format);
  }
  SubmissionLimitCheck c;
  try {
    c.metadata = bundle::read_submission_metadata(a.metadata);
    c.decision = bundle::decide_submission_limit(c.metadata, a.max_per_day, c.metadata.created_at.at);
  } catch (const std::exception& e) {
    c.decision = bundle::unchecked_submission_limit(a.max_per_day, e.what());
  }
  const bundle::LimitDecision& d = c.decision;
  if (!d.checked) {
    fmt::print(stderr, "gpulab: submission limit not applied, grading as usual: {}\n", files::valid_utf8(d.problem));
  } else {
    fmt::print(stderr, "gpulab: submission limit: {} of {} gradings used in the 24 hours before {}; {}\n",
               d.graded_in_window, d.limit, files::valid_utf8(c.metadata.created_at_text),
               d.grade ? "grading this submission" : "not grading it, carrying the last graded results forward");
  }
  return c;
}

}  // namespace gpulab::cli
