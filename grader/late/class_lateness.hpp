// The lateness of every student of a graded class under a course file: per
// student, the submission time and its source, the on-time score, and what the
// policy makes of it (late_policy.hpp); for the class, the warnings an
// instructor must read (times taken from files, times missing, course-file
// students nobody in the class matches). Shown by gradebook.csv's late columns
// and report.html's "Late submissions".
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "batch/class_results.hpp"
#include "batch/class_roster.hpp"
#include "course_file.hpp"
#include "late_policy.hpp"
#include "submission_time.hpp"

namespace gpulab::late {

struct LateRow {
  std::string student;
  SubmissionTime time;
  std::string submitted_at;             // ISO 8601 in the course's zone, with its offset; "" when unknown
  std::optional<double> on_time_score;  // the batch's total; absent without a score
  Lateness lateness;
  std::string budget_from;  // late-day policy: the course-file key(s) whose budget applied, "" for the course's
};

struct ClassLateness {
  Course course;
  LabDeadline deadline;
  std::map<std::string, LateRow> rows;  // by student label
  std::vector<std::string> warnings;    // for stderr and the report, in words

  const LateRow* row(const std::string& student) const;
};

// Throws std::runtime_error when the course file has no entry for the class's lab, or when one
// submitter matches two entries of late_days.students.
ClassLateness assess_class(const Course& course, const batch::ClassResults& c);

// Replaces each record's submission facts (Gradescope's created_at, the newest file time) with
// those just read from the submissions folder, for the students in `roster`.
void use_roster_times(batch::ClassResults& c, const batch::Roster& roster);

// The policy in one sentence, for the report: "Due 2026-11-20 23:59 (America/New_York) ...".
std::string policy_summary(const Course& course, const LabDeadline& d);

}  // namespace gpulab::late
