// The course file of `gpulab batch --course` and `gpulab merge --course`: each
// lab's due date and optional late due date, in an explicit time zone, an
// optional grace period, and one late policy: a penalty per day late (percent
// of the score, capped) or a budget of late days per student (with per-student
// budgets and the days used on earlier labs). Read strictly: an unknown key, a
// bad date, a negative number is an error naming the file and the key.
// docs/batch-grading.md describes every key.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "course_time.hpp"

namespace gpulab::late {

struct LabDeadline {
  std::string lab;
  LocalTime due_local;  // as written, in the course's time zone
  Instant due;
  std::optional<LocalTime> late_due_local;  // after it: not accepted
  std::optional<Instant> late_due;
};

struct PenaltyPolicy {
  double percent_per_day = 0;  // of the score earned, per day late
  double max_percent = 100;    // the cap
};

struct StudentDays {
  std::optional<int> budget;  // else the course's budget
  int used_before = 0;        // late days used on earlier labs
};

struct LateDayPolicy {
  int budget = 0;                               // late days per student, for the whole course
  std::map<std::string, StudentDays> students;  // by student label, email or sid
};

struct Course {
  std::string origin;  // the file, for messages
  std::string time_zone;
  const date::time_zone* zone = nullptr;
  int grace_minutes = 0;
  std::map<std::string, LabDeadline> labs;
  std::optional<PenaltyPolicy> penalty;  // exactly one of these two
  std::optional<LateDayPolicy> late_days;

  // The deadlines of `lab`; throws std::runtime_error naming the file and the labs it lists.
  const LabDeadline& deadlines(const std::string& lab) const;
};

// Throws std::runtime_error "ORIGIN: KEY: what is wrong, and what to write instead".
Course parse_course_file(const std::string& text, const std::string& origin);
Course read_course_file(const std::filesystem::path& path);

}  // namespace gpulab::late
