// assess_class: each student's time, budget and lateness; the class's warnings.
#include "class_lateness.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include <fmt/format.h>

namespace gpulab::late {

namespace {
std::string join(const std::vector<std::string>& names, size_t limit = 12) {
  std::string s;
  for (size_t i = 0; i < names.size() && i < limit; ++i) s += (i ? ", " : "") + names[i];
  if (names.size() > limit) s += ", ... (" + std::to_string(names.size() - limit) + " more)";
  return s;
}

std::string plural(size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string number(double x) { return fmt::format("{:g}", std::round(x * 100.0) / 100.0); }

// The identities a course-file key may name: the label, and each submitter's email and sid.
std::vector<std::vector<std::string>> people_of(const batch::StudentRecord& r) {
  std::vector<std::vector<std::string>> people;
  for (const batch::Submitter& s : r.submitters) {
    std::vector<std::string> ids;
    if (!s.email.empty()) ids.push_back(s.email);
    if (!s.sid.empty()) ids.push_back(s.sid);
    people.push_back(ids);
  }
  if (people.empty()) people.push_back({});
  if (r.submitters.size() <= 1) people.front().push_back(r.student);
  return people;
}

// The late days left to the submission before this lab: for a group, its member with the fewest.
int days_left_for(const Course& course, const batch::StudentRecord& r, std::set<std::string>& used_keys,
                  std::string& from) {
  const LateDayPolicy& p = *course.late_days;
  int left = -1;
  for (const std::vector<std::string>& ids : people_of(r)) {
    std::string key;
    for (const std::string& id : ids) {
      if (!p.students.count(id) || id == key) continue;
      if (!key.empty()) {
        throw std::runtime_error(course.origin + ": late_days.students: '" + key + "' and '" + id +
                                 "' are the same student (" + r.student + "): keep one entry");
      }
      key = id;
    }
    int mine = p.budget;
    if (!key.empty()) {
      const StudentDays& d = p.students.at(key);
      mine = d.budget.value_or(p.budget) - d.used_before;
      used_keys.insert(key);
      from += (from.empty() ? "" : "; ") + key;
    }
    left = left < 0 ? mine : std::min(left, mine);
  }
  return std::max(0, left);
}
}  // namespace

const LateRow* ClassLateness::row(const std::string& student) const {
  auto it = rows.find(student);
  return it == rows.end() ? nullptr : &it->second;
}

ClassLateness assess_class(const Course& course, const batch::ClassResults& c) {
  ClassLateness out{course, course.deadlines(c.lab), {}, {}};
  std::vector<std::string> from_files, without_time;
  std::set<std::string> used_keys;
  for (const batch::StudentEntry& e : c.students) {
    const batch::StudentRecord& r = e.record;
    LateRow row;
    row.student = r.student;
    row.time = submission_time(r.created_at, r.newest_file_time);
    if (row.time.at) row.submitted_at = format_in_zone(course.zone, *row.time.at);
    if (row.time.source == kFromFileTime) from_files.push_back(r.student);
    if (!row.time.at) without_time.push_back(r.student);
    if (!row.time.note.empty())
      out.warnings.push_back(r.student + ": " + row.time.note + "; the file time is used instead");
    if (batch::is_scored(r.status)) row.on_time_score = r.score;
    const int left = course.late_days ? days_left_for(course, r, used_keys, row.budget_from) : 0;
    row.lateness = assess_lateness(course, out.deadline, row.time.at, row.on_time_score, left);
    out.rows[r.student] = row;
  }
  if (!from_files.empty()) {
    out.warnings.push_back("the submission time of " + plural(from_files.size(), "student", "students") + " (" +
                           join(from_files) +
                           ") is the newest file time in their folder, which copying or "
                           "unzipping can change: check these by hand, or grade Gradescope's export, whose "
                           "submission_metadata.yml holds the real times (time_source file_time in gradebook.csv)");
  }
  if (!without_time.empty()) {
    out.warnings.push_back("no submission time for " + plural(without_time.size(), "student", "students") + " (" +
                           join(without_time) +
                           "): no file in the folder and no Gradescope time; late_status "
                           "unknown_time, final left empty for you to decide");
  }
  if (course.late_days) {
    std::vector<std::string> unmatched;
    for (const auto& [key, d] : course.late_days->students)
      if (!used_keys.count(key)) unmatched.push_back(key);
    if (!unmatched.empty()) {
      out.warnings.push_back(course.origin + ": late_days.students: " + join(unmatched) +
                             " match no student of this class (by label, email or sid); check the spelling if they "
                             "handed this lab in");
    }
  }
  return out;
}

void use_roster_times(batch::ClassResults& c, const batch::Roster& roster) {
  for (batch::StudentEntry& e : c.students) {
    for (const batch::Submission& s : roster.submissions) {
      if (s.student != e.record.student) continue;
      e.record.created_at = s.created_at;
      e.record.newest_file_time = s.newest_file_time;
    }
  }
}

std::string policy_summary(const Course& course, const LabDeadline& d) {
  std::string s = "Due " + date::format("%F %R", d.due_local) + " (" + course.time_zone + ", " +
                  format_in_zone(course.zone, d.due) + ")";
  if (course.grace_minutes) s += ", with " + plural(course.grace_minutes, "minute", "minutes") + " of grace";
  s += ". ";
  if (course.penalty) {
    s += "Late work loses " + number(course.penalty->percent_per_day) +
         "% of its score per day started late, at most " + number(course.penalty->max_percent) + "%. ";
  } else {
    s += "Each student has " + plural(course.late_days->budget, "late day", "late days") + " for the course (" +
         plural(course.late_days->students.size(), "student", "students") +
         " with their own budget or days used before); a submission later than the days left scores 0 and is "
         "charged nothing. ";
  }
  if (d.late_due) {
    s += "Not accepted after " + date::format("%F %R", *d.late_due_local) + " (score 0). ";
  }
  s += "Days late are counted on the calendar of " + course.time_zone +
       ": a day is from the due time to the same "
       "time the next day.";
  return s;
}

}  // namespace gpulab::late
