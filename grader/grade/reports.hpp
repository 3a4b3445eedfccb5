// Turning a GradeResult into what people read: Gradescope's results.json, the
// project's own JSON with per-dataset detail, and a text table for students.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "grading.hpp"
#include "leaderboard.hpp"

namespace gpulab::grade {

// `leaderboard`: the parts ranked in its "leaderboard" array (leaderboard.hpp); none: no leaderboard.
nlohmann::json gradescope_results(const GradeResult& g, const std::vector<LeaderboardPart>& leaderboard = {});
nlohmann::json detailed_results(const GradeResult& g);
std::string text_report(const GradeResult& g, bool colour, bool hints);

}  // namespace gpulab::grade
