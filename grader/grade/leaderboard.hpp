// Gradescope's leaderboard in results.json (`gpulab grade --leaderboard`): per
// part whose speed is scored, its throughput (GB/s or GFLOP/s, higher first)
// and its median time in ms (lower first). Only a speed that was scored ranks
// (the part's correctness cases all passed and the timed calls were checked
// and plausible); every other part, and a submission that did not compile or
// had no file to grade, gets the same entries with the worst values (0 and
// kUnrankedMilliseconds), so the names never change and no failing submission
// ranks above a correct one. Speed is measured on a GPU only: on the emulator
// there is no leaderboard at all. docs/results-format.md, "Leaderboard".
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "grading.hpp"
#include "lab/lab_spec.hpp"

namespace gpulab::grade {

// A part that has a place on the leaderboard, and the unit of its throughput.
struct LeaderboardPart {
  std::string part;
  std::string rate_unit;  // "GB/s" or "GFLOP/s", from lab.json's performance.work
};

// The time given to a part whose speed does not rank: 1,000 s, beyond any ranked median.
inline constexpr double kUnrankedMilliseconds = 1e6;

// Whether a part's speed with this performance status ranks (scored only).
bool speed_ranks(PerformanceStatus performance_status);

// The graded parts of `g` whose speed `lab` scores, in lab.json's order; empty unless speed was
// scored on a GPU in this grading (`speed_scored` and the cuda backend).
std::vector<LeaderboardPart> leaderboard_parts(const LabSpec& lab, const GradeResult& g, bool speed_scored);

// Gradescope's "leaderboard" array for `g`: two entries per part ("<part>: <unit>", "<part>: time (ms)").
nlohmann::json gradescope_leaderboard(const std::vector<LeaderboardPart>& parts, const GradeResult& g);

}  // namespace gpulab::grade
