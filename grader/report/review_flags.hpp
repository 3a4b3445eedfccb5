// What a graded class asks the instructor to look at by hand: submissions the
// grade cannot vouch for (an audit finding in the object, a run whose report
// could not be trusted: the result file's "review"), and parts whose speed
// was implausible (faster than the device can go, see
// grader/grade/plausibility.hpp) or whose timed calls' check was tampered
// with; such parts earn no speed points. Read from each student's result
// file and shown in gradebook.csv's `review` column and report.html's "For
// review".
#pragma once
#include <string>
#include <vector>

#include "batch/class_results.hpp"

namespace gpulab::report {

struct ReviewFlag {
  std::string student;
  std::string part;
  std::string reason;  // the grader's words, for the instructor
  bool speed = true;   // a part's speed (else the submission's or a part's correctness)
};

// The flags of one student's result (gpulab-results/1).
std::vector<ReviewFlag> review_flags(const std::string& student, const grade::ResultsRecord& result);
// The flags of the whole class, in the class's order.
std::vector<ReviewFlag> review_flags(const batch::ClassResults& c);
// gradebook.csv's `review` cell: "", "speed for review: int, float", "for review: submission" or both.
std::string review_cell(const std::vector<ReviewFlag>& flags);

}  // namespace gpulab::report
