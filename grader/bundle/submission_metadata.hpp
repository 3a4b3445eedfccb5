// Reading /autograder/submission_metadata.json, which Gradescope writes next to
// each submission before run_autograder runs: when this submission was made
// ("created_at") and the earlier submissions of its student or group
// ("previous_submissions": each with "submission_time", "score" and "results",
// the results.json that grading wrote). The other fields (assignment, users,
// ...) are not needed here and are skipped.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gradescope_time.hpp"

namespace gpulab::bundle {

struct PreviousSubmission {
  std::string submission_time;   // as written; "" when absent
  std::optional<OffsetTime> at;  // nullopt when the time is absent or unreadable
  std::optional<double> score;   // the entry's "score" (a number, or a number written as text)
  nlohmann::json results;        // the entry's "results" as written; null when absent
};

struct SubmissionMetadata {
  std::string created_at_text;
  OffsetTime created_at;
  std::vector<PreviousSubmission> previous;  // in the file's order
};

// Throws std::runtime_error saying what is wrong, starting with `origin` (the file): not JSON,
// not an object, "created_at" missing or not a time, "previous_submissions" missing or not a
// list. A single previous submission that is not an object or whose time cannot be read is
// kept, with `at` empty: the caller decides what it counts for.
SubmissionMetadata parse_submission_metadata(const std::string& text, const std::string& origin);

// The same, reading the file; a file that cannot be read throws likewise.
SubmissionMetadata read_submission_metadata(const std::string& path);

}  // namespace gpulab::bundle
