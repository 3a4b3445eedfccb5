// load_course and write_reports.
#include "late_option.hpp"

#include <cstdio>

#include <fmt/format.h>

#include "late/class_lateness.hpp"

namespace gpulab::cli {

std::optional<late::Course> load_course(const std::string& path, const std::string& lab) {
  if (path.empty()) return std::nullopt;
  late::Course course = late::read_course_file(path);
  course.deadlines(lab);
  return course;
}

void write_reports(const std::filesystem::path& out_dir, batch::ClassResults& c,
                   const std::optional<late::Course>& course, const batch::Roster* roster, bool leaderboard_names) {
  if (!course) {
    report::write_class_reports(out_dir, c, nullptr, leaderboard_names);
    return;
  }
  if (roster) late::use_roster_times(c, *roster);
  const late::ClassLateness lateness = late::assess_class(*course, c);
  for (const std::string& w : lateness.warnings) fmt::print(stderr, "gpulab: warning: {}\n", w);
  size_t late_count = 0;
  for (const auto& [student, row] : lateness.rows)
    late_count += row.lateness.status != late::kOnTime && row.lateness.status != late::kWithinGrace;
  fmt::print(stderr, "late submissions: {} of {} (policy of {}; columns late_status and final in gradebook.csv)\n",
             late_count, lateness.rows.size(), course->origin);
  report::write_class_reports(out_dir, c, &lateness, leaderboard_names);
}

}  // namespace gpulab::cli
