// Tests of Gradescope's extra_data (grader/grade/gradescope_extra_data): the
// exact, unrounded scores behind results.json's rounded points, with each
// case's id, sizes, status and time, and the whole submission's totals.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "grade/reports.hpp"

using gpulab::grade::CaseResult;
using gpulab::grade::GradeResult;
using gpulab::grade::PartResult;
using nlohmann::json;

namespace {
// One part of 10 points over three cases: passed, failed after a time-out, and not run.
GradeResult sample() {
  GradeResult g;
  g.lab = "reduction";
  g.lab_version = "3";
  g.backend = "emu";
  g.compiled = true;
  g.hidden_visibility = "after_due_date";
  PartResult p;
  p.name = "int";
  p.max_score = 10;
  for (int i = 1; i <= 3; ++i) {
    CaseResult c;
    c.part = "int";
    c.id = "int-odd-" + std::to_string(i);
    c.label = "dataset " + std::to_string(i) + " (n=" + std::to_string(i * 1000) + ")";
    c.family = "odd";
    c.sizes = {{"n", i * 1000}};
    c.hidden = i == 3;
    c.max_score = 10.0 / 3.0;
    c.seconds = 0.125 * i;
    p.cases.push_back(c);
  }
  p.cases[0].passed = true;
  p.cases[0].score = 10.0 / 3.0;
  p.cases[1].stopped_by = gpulab::grade::StopReason::time_limit;
  p.cases[1].feedback = "timed out after 30 s";
  p.cases[2].run = false;
  p.cases[2].seconds = 0;
  p.score = 10.0 / 3.0;
  g.parts = {p};
  g.score = 10.0 / 3.0;
  g.max_score = 10;
  g.seconds = 4.5;
  return g;
}
}  // namespace

TEST_CASE("gradescope extra_data: each case keeps its exact score, ids, sizes, status and time",
          "[reports][extra_data]") {
  const json tests = gpulab::grade::gradescope_results(sample()).at("tests");
  REQUIRE(tests.size() == 3);
  const json& passed = tests[0].at("extra_data");
  CHECK(tests[0].at("score") == 3.33);                    // rounded for display ...
  CHECK(passed.at("score").get<double>() == 10.0 / 3.0);  // ... exact here
  CHECK(passed.at("max_score").get<double>() == 10.0 / 3.0);
  CHECK(passed.at("part") == "int");
  CHECK(passed.at("case_id") == "int-odd-1");
  CHECK(passed.at("family") == "odd");
  CHECK(passed.at("hidden") == false);
  CHECK(passed.at("sizes") == json{{"n", 1000}});
  CHECK(passed.at("status") == "passed");
  CHECK(passed.at("seconds") == 0.125);
  CHECK_FALSE(passed.contains("stopped_by"));

  const json& stopped = tests[1].at("extra_data");
  CHECK(stopped.at("status") == "failed");
  CHECK(stopped.at("score") == 0);
  CHECK(stopped.at("stopped_by") == "the time limit");

  const json& skipped = tests[2].at("extra_data");
  CHECK(skipped.at("status") == "not_run");
  CHECK(skipped.at("hidden") == true);
  CHECK_FALSE(skipped.contains("seconds"));
}

TEST_CASE("gradescope extra_data: the submission's exact totals, part by part", "[reports][extra_data]") {
  const json r = gpulab::grade::gradescope_results(sample());
  CHECK(r.at("score") == 3.33);
  const json& extra = r.at("extra_data");
  CHECK(extra.at("score").get<double>() == 10.0 / 3.0);
  CHECK(extra.at("max_score") == 10.0);
  CHECK(extra.at("lab") == "reduction");
  CHECK(extra.at("lab_version") == "3");
  CHECK(extra.at("backend") == "emu");
  CHECK(extra.at("compiled") == true);
  CHECK(extra.at("parts") == json::array({{{"name", "int"}, {"score", 10.0 / 3.0}, {"max_score", 10.0}}}));
}

TEST_CASE("gradescope extra_data: a submission that does not compile says so per part", "[reports][extra_data]") {
  GradeResult g = sample();
  g.compiled = false;
  g.compile_output = "a.cu:1:1: error: no\n";
  g.parts[0].cases.clear();
  g.parts[0].score = 0;
  g.score = 0;
  const json r = gpulab::grade::gradescope_results(g);
  REQUIRE(r.at("tests").size() == 1);
  const json& extra = r.at("tests")[0].at("extra_data");
  CHECK(extra.at("status") == "did_not_compile");
  CHECK(extra.at("max_score") == 10.0);
  CHECK(r.at("extra_data").at("compiled") == false);
}
