// Tests of Gradescope's leaderboard in results.json (grader/grade/leaderboard):
// the entries' names, values and order for a GPU grading, the worst values for
// a part whose speed did not rank (wrong, implausible, not compiled, not
// graded), and no leaderboard without --leaderboard or off the GPU.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "grade/leaderboard.hpp"
#include "grade/reports.hpp"

using gpulab::grade::GradeResult;
using gpulab::grade::LeaderboardPart;
using gpulab::grade::PartResult;
using gpulab::grade::PerformanceResult;
using nlohmann::json;

namespace {
gpulab::LabSpec lab(const std::string& name) {
  return gpulab::load_lab_spec(std::string(GPULAB_TEST_SOURCE_DIR) + "/assignments/" + name + "/lab.json");
}

PerformanceResult speed(const std::string& status, double seconds, double rate) {
  PerformanceResult r;
  r.status = json(status).get<gpulab::grade::PerformanceStatus>();
  r.counted = true;
  r.max_score = 15;
  r.score = status == "scored" ? 12 : 0;
  r.seconds = seconds;
  r.rate = rate;
  r.rate_unit = "GB/s";
  return r;
}

// The reduction lab graded on a GPU: both parts timed, with the given statuses.
GradeResult reduction_on_gpu(const std::string& int_status, const std::string& float_status) {
  GradeResult g;
  g.lab = "reduction";
  g.backend = "cuda";
  g.compiled = true;
  PartResult a;
  a.name = "int";
  a.performance = speed(int_status, 0.000123456, 2174.51234);
  PartResult b;
  b.name = "float";
  b.performance = speed(float_status, 0.0002, 1342.17728);
  g.parts = {a, b};
  return g;
}

const std::vector<LeaderboardPart> kReductionBoard = {{"int", "GB/s"}, {"float", "GB/s"}};
}  // namespace

TEST_CASE("leaderboard: throughput (descending) and time in ms (ascending) per part", "[reports][leaderboard]") {
  const json r = gpulab::grade::gradescope_results(reduction_on_gpu("scored", "scored"), kReductionBoard);
  REQUIRE(r.contains("leaderboard"));
  const json expected = json::array({
      {{"name", "int: GB/s"}, {"value", 2174.51}},
      {{"name", "int: time (ms)"}, {"value", 0.1235}, {"order", "asc"}},
      {{"name", "float: GB/s"}, {"value", 1342.18}},
      {{"name", "float: time (ms)"}, {"value", 0.2}, {"order", "asc"}},
  });
  CHECK(r["leaderboard"] == expected);
  // The rest of results.json is what it is without a leaderboard.
  json without = r;
  without.erase("leaderboard");
  CHECK(without == gpulab::grade::gradescope_results(reduction_on_gpu("scored", "scored")));
}

TEST_CASE("leaderboard: absent unless asked for", "[reports][leaderboard]") {
  CHECK_FALSE(gpulab::grade::gradescope_results(reduction_on_gpu("scored", "scored")).contains("leaderboard"));
}

TEST_CASE("leaderboard: a part whose speed did not rank gets the worst values, same names", "[reports][leaderboard]") {
  for (const std::string status : {"failed", "implausible", "not_measured"}) {
    CAPTURE(status);
    const json board =
        gpulab::grade::gradescope_results(reduction_on_gpu(status, "scored"), kReductionBoard)["leaderboard"];
    REQUIRE(board.size() == 4);
    CHECK(board[0] == json{{"name", "int: GB/s"}, {"value", 0.0}});
    CHECK(board[1] ==
          json{{"name", "int: time (ms)"}, {"value", gpulab::grade::kUnrankedMilliseconds}, {"order", "asc"}});
    CHECK(board[2]["value"] == 1342.18);  // the other part still ranks
  }
  // Worse than any ranked value in both orders.
  CHECK(gpulab::grade::kUnrankedMilliseconds > 1e5);
}

TEST_CASE("leaderboard: a submission that did not compile, or was not graded, ranks last", "[reports][leaderboard]") {
  GradeResult g = reduction_on_gpu("scored", "scored");
  g.compiled = false;
  for (PartResult& p : g.parts) {
    p.cases.clear();
    p.performance = speed("failed", 0, 0);  // what grading records for a compile error on a GPU
  }
  GradeResult nothing = g;
  nothing.not_graded = "no .cu file was handed in";
  for (PartResult& p : nothing.parts) p.performance.reset();  // nothing was compiled or timed
  for (const GradeResult& failing : {g, nothing}) {
    const json board = gpulab::grade::gradescope_results(failing, kReductionBoard)["leaderboard"];
    REQUIRE(board.size() == 4);
    for (size_t i = 0; i < 4; i += 2) {
      CHECK(board[i]["value"] == 0.0);
      CHECK(board[i + 1]["value"] == gpulab::grade::kUnrankedMilliseconds);
      CHECK(board[i + 1]["order"] == "asc");
    }
    CHECK(board[0]["name"] == "int: GB/s");
    CHECK(board[3]["name"] == "float: time (ms)");
  }
}

TEST_CASE("leaderboard: ranked parts and units come from lab.json, on a GPU only", "[reports][leaderboard]") {
  GradeResult g = reduction_on_gpu("scored", "scored");
  auto parts = gpulab::grade::leaderboard_parts(lab("reduction"), g, true);
  REQUIRE(parts.size() == 2);
  CHECK(parts[0].part == "int");
  CHECK(parts[0].rate_unit == "GB/s");
  CHECK(parts[1].part == "float");

  GradeResult m;
  m.backend = "cuda";
  m.parts.resize(1);
  m.parts[0].name = "tiled";
  parts = gpulab::grade::leaderboard_parts(lab("matmul"), m, true);
  REQUIRE(parts.size() == 1);
  CHECK(parts[0].rate_unit == "GFLOP/s");

  g.parts.erase(g.parts.begin());  // --part float
  parts = gpulab::grade::leaderboard_parts(lab("reduction"), g, true);
  REQUIRE(parts.size() == 1);
  CHECK(parts[0].part == "float");

  CHECK(gpulab::grade::leaderboard_parts(lab("reduction"), g, false).empty());  // --performance off
  g.backend = "emu";
  CHECK(gpulab::grade::leaderboard_parts(lab("reduction"), g, true).empty());
  CHECK_FALSE(gpulab::grade::gradescope_results(g, {}).contains("leaderboard"));
}

TEST_CASE("leaderboard: only a scored speed ranks", "[reports][leaderboard]") {
  using gpulab::grade::PerformanceStatus;
  CHECK(gpulab::grade::speed_ranks(PerformanceStatus::scored));
  for (PerformanceStatus s :
       {PerformanceStatus::failed, PerformanceStatus::implausible, PerformanceStatus::not_measured})
    CHECK_FALSE(gpulab::grade::speed_ranks(s));
}
