// Writing a batch folder's class-level outputs, gradebook.csv and report.html,
// both atomically, from the records and results in the folder (and, for the
// report's similarity section, similarity/summary.json when it is there). The
// report's leaderboard shows pseudonyms unless `leaderboard_names`; with
// pseudonyms the folder also keeps their salt (leaderboard-salt) and
// leaderboard-pseudonyms.csv, which maps them back to the students.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "batch/class_results.hpp"
#include "late/class_lateness.hpp"

namespace gpulab::report {

// `late`: the class's lateness under a course file (late columns and section), or null.
void write_class_reports(const std::filesystem::path& out_dir, const batch::ClassResults& c,
                         const late::ClassLateness* late = nullptr, bool leaderboard_names = false);

}  // namespace gpulab::report
