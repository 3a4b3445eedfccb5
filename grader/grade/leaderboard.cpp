// leaderboard_parts and gradescope_leaderboard.
#include "leaderboard.hpp"

#include <algorithm>
#include <cmath>

namespace gpulab::grade {
using nlohmann::json;

namespace {
double rounded(double x, double scale) { return std::round(x * scale) / scale; }
}  // namespace

bool speed_ranks(PerformanceStatus performance_status) { return performance_status == PerformanceStatus::scored; }

std::vector<LeaderboardPart> leaderboard_parts(const LabSpec& lab, const GradeResult& g, bool speed_scored) {
  std::vector<LeaderboardPart> parts;
  if (!speed_scored || g.backend != "cuda") return parts;
  for (const PartSpec& spec : lab.parts) {
    if (!spec.performance) continue;
    const bool graded =
        std::any_of(g.parts.begin(), g.parts.end(), [&](const PartResult& p) { return p.name == spec.name; });
    if (graded) parts.push_back({spec.name, spec.performance->work == "bytes" ? "GB/s" : "GFLOP/s"});
  }
  return parts;
}

json gradescope_leaderboard(const std::vector<LeaderboardPart>& parts, const GradeResult& g) {
  json board = json::array();
  for (const LeaderboardPart& lp : parts) {
    double rate = 0;
    double ms = kUnrankedMilliseconds;
    // A submission that did not compile or was not graded has no speed at all: the worst values.
    for (const PartResult& p : g.parts) {
      if (p.name != lp.part || !p.performance || !speed_ranks(p.performance->status)) continue;
      if (p.performance->seconds <= 0) continue;
      rate = rounded(p.performance->rate, 100);
      ms = rounded(p.performance->seconds * 1e3, 1e4);
    }
    // Gradescope ranks higher values first unless "order" is "asc".
    board.push_back({{"name", lp.part + ": " + lp.rate_unit}, {"value", rate}});
    board.push_back({{"name", lp.part + ": time (ms)"}, {"value", ms}, {"order", "asc"}});
  }
  return board;
}

}  // namespace gpulab::grade
