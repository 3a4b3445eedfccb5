// DIR/report.html: one offline, self-contained page (inline CSS and SVG, no
// scripts, nothing fetched) on a graded class: the score distribution, the
// pass rate of every test case, the performance ratios (GPU backend), the most
// common failure classes with example messages, the most similar pairs of
// submissions (when a similarity report was made), a row per student, with
// a course file the late submissions (late_section.hpp), and the leaderboard
// (leaderboard_section.hpp) when one is given.
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "batch/class_results.hpp"
#include "late/class_lateness.hpp"
#include "report/leaderboard_section.hpp"

namespace gpulab::report {

// `similarity`: OUT/similarity/summary.json (similarity_section.hpp), shown after the review list;
// `late`: the class's lateness under a course file, shown after that; `leaderboard`: shown after the
// performance ratios.
std::string html_report(const batch::ClassResults& c, const std::string& generated_at,
                        const std::optional<nlohmann::json>& similarity = std::nullopt,
                        const late::ClassLateness* late = nullptr, const ClassLeaderboard* leaderboard = nullptr);

}  // namespace gpulab::report
