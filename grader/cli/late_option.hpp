// `--course FILE` of `gpulab batch` and `gpulab merge`: the course file is read
// and checked before any grading starts (a mistake in it costs no time), and
// when the class's reports are written, its lateness is assessed, its warnings
// printed, and gradebook.csv and report.html get their late columns and section.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

#include "batch/class_roster.hpp"
#include "late/course_file.hpp"
#include "report/class_reports.hpp"

namespace gpulab::cli {

// nullopt for an empty path; else the course, which must have deadlines for `lab`. Throws
// std::runtime_error naming the file and the key (the command then exits 2).
std::optional<late::Course> load_course(const std::string& path, const std::string& lab);

// write_class_reports, with the late columns and section when `course` is set. `roster` (the
// submissions folder just read) supplies the submission times; without it (a merge) the records do.
// `leaderboard_names`: report.html's leaderboard shows names rather than pseudonyms.
void write_reports(const std::filesystem::path& out_dir, batch::ClassResults& c,
                   const std::optional<late::Course>& course, const batch::Roster* roster,
                   bool leaderboard_names = false);

}  // namespace gpulab::cli
