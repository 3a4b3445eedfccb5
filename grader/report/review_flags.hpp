// What a graded class asks the instructor to look at by hand: parts whose
// speed was implausible (faster than the device can go, see
// grader/grade/plausibility.hpp) or whose timed calls' check was tampered
// with; such parts earn no speed points. Read from each student's result
// file ("review" of a part's performance) and shown in gradebook.csv's
// `review` column and report.html's "For review".
#pragma once
#include <string>
#include <vector>

#include "batch/class_results.hpp"

namespace gpulab::report {

struct ReviewFlag {
  std::string student;
  std::string part;
  std::string reason;  // the grader's words, for the instructor
};

// The flags of one student's result (gpulab-results/1).
std::vector<ReviewFlag> review_flags(const std::string& student, const grade::ResultsRecord& result);
// The flags of the whole class, in the class's order.
std::vector<ReviewFlag> review_flags(const batch::ClassResults& c);
// gradebook.csv's `review` cell: "" or "speed for review: int, float".
std::string review_cell(const std::vector<ReviewFlag>& flags);

}  // namespace gpulab::report
