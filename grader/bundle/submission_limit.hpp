// Gradescope's submission limit (`gpulab bundle gradescope LAB
// --max-submissions-per-day N`): at most N submissions of a student (or of a
// group, as Gradescope lists its submissions) are graded in any 24 hours.
// Counted are the earlier submissions listed in submission_metadata.json whose
// time lies in the 24 hours before this one and whose results are a grading:
// a results object with a score or tests and without the carried-forward mark.
// Beyond the limit this submission is not graded: its results.json carries the
// last graded submission's score and tests forward, bears the mark (so that it
// never counts itself), and says when the next grading becomes available.
// Everything here is a pure function of the metadata and of `now`.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "submission_metadata.hpp"

namespace gpulab::bundle {

// The key in results.json's extra_data that marks carried-forward (not graded) results.
inline constexpr const char* kSubmissionLimitKey = "gpulab_submission_limit";

struct LimitDecision {
  int limit = 0;             // gradings allowed in any 24 hours
  bool checked = false;      // false: the metadata could not be used; graded anyway
  std::string problem;       // why not checked
  bool grade = true;         // false: over the limit, carry the last grading forward
  int graded_in_window = 0;  // earlier gradings in the 24 hours before now
  int unreadable = 0;        // earlier submissions without a readable time (not counted)
  TimePoint now{};
  std::chrono::minutes offset{0};  // the metadata's UTC offset, in which times are shown
  // Not graded: when the next submission can be graded. Graded as the last one the limit allows:
  // when the one after it can be. Otherwise empty.
  std::optional<TimePoint> next_grading;
  int carried_from = -1;  // not graded: index of the last graded submission in `previous`
};

// True when `results` (a results.json object) bears the carried-forward mark.
bool is_carried_forward(const nlohmann::json& results);

// True when an earlier submission counts as graded (results a grading, without the mark).
bool counts_as_graded(const PreviousSubmission& p);

// The decision for a submission made at `now` (the metadata's created_at, so that a rerun
// decides the same). Earlier submissions made after `now` (listed when an old submission is
// regraded) are not counted.
LimitDecision decide_submission_limit(const SubmissionMetadata& m, int limit, TimePoint now);

// The decision when the metadata cannot be read: grade, and say why the limit was not applied.
LimitDecision unchecked_submission_limit(int limit, const std::string& problem);

// What the student reads about the limit, at the top of the results' output: how many gradings
// are used and when the next one comes, or why the limit was not applied.
std::string submission_limit_note(const LimitDecision& d);

// The results.json of a submission over the limit: the carried submission's results with the
// note above its output, execution_time set, and extra_data[kSubmissionLimitKey] the mark.
// Requires !d.grade.
nlohmann::json carried_forward_results(const SubmissionMetadata& m, const LimitDecision& d, int execution_time);

// Puts submission_limit_note(d) above the output of freshly graded Gradescope results.
void add_submission_limit_note(nlohmann::json& results, const LimitDecision& d);

}  // namespace gpulab::bundle
