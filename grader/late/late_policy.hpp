// The arithmetic of lateness for one submission: how late it is (hours, and
// days counted on the course time zone's calendar, so a day across a
// daylight-saving change is still one day), and what the course's policy makes
// of it: a penalty in percent of the score (capped), or late days charged to
// the student's budget; after the late due date, or beyond the budget, the
// submission is not accepted (score 0).
#pragma once
#include <optional>
#include <string>

#include "course_file.hpp"

namespace gpulab::late {

// late_status values.
inline constexpr const char* kOnTime = "on_time";
inline constexpr const char* kWithinGrace = "grace";         // after due, within the grace period: no penalty
inline constexpr const char* kLate = "late";                 // penalised, or late days charged
inline constexpr const char* kNotAccepted = "not_accepted";  // after the late due date: score 0
inline constexpr const char* kBudgetExhausted = "late_days_exhausted";  // more days late than left: score 0
inline constexpr const char* kUnknownTime = "unknown_time";             // no time to judge by: decided by hand

struct Lateness {
  std::string status;
  double hours_late = 0;  // real hours after due (0 when on time)
  int days_late = 0;      // days started after due plus grace, 0 within grace
  int late_days_charged = 0;
  int late_days_left = 0;         // after this lab (late-day policy only)
  double penalty_percent = 0;     // of the on-time score
  std::optional<double> penalty;  // points taken; absent without an on-time score or a time
  std::optional<double> final_score;
};

// Days late: 0 up to due + grace; else the smallest k such that the submission is at most grace after
// the due wall-clock time k days later in the course's zone.
int days_late(const Course& course, const LabDeadline& d, Instant submitted);

// `days_left` is used with the late-day policy only; `on_time_score` is absent when the submission has no
// score (a grader error, not graded yet).
Lateness assess_lateness(const Course& course, const LabDeadline& d, std::optional<Instant> submitted,
                         std::optional<double> on_time_score, int days_left);

}  // namespace gpulab::late
