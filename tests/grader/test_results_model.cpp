// The gpulab-results/1 model (grader/grade/results_model): what the writer
// writes is what the reader reads back, equal field by field; a renamed,
// missing or mistyped key, or an unknown word in an enumerated one, is an
// error naming the file and the key's path, never a silent default.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "grade/reports.hpp"
#include "grade/results_model.hpp"
#include "grader_test_support.hpp"

using gpulab::grade::FailureKind;
using gpulab::grade::GradeResult;
using gpulab::grade::results_from_json;
using gpulab::grade::ResultsFormatError;
using nlohmann::json;

namespace {
// One part with a passing, a timed-out and a not-run case, a scored speed under review, a sanitizer
// run and counters; a second part that only failed.
GradeResult sample() {
  GradeResult g;
  g.lab = "reduction";
  g.lab_version = "3";
  g.submission = "alice/reduction.cu";
  g.backend = "cuda";
  g.compiled = true;
  g.compile_output = "warning: unused variable 'x'";
  g.score = 61.5;
  g.max_score = 100;
  g.seconds = 12.25;
  g.compile_seconds = 3.5;
  g.isolation = "bubblewrap sandbox";
  gpulab::grade::PartResult p;
  p.name = "int";
  p.signature = "void reduce(const int* in, int* out, int n)";
  p.score = 51.5;
  p.max_score = 65;
  gpulab::grade::CaseResult ok;
  ok.id = "int-tiny-1";
  ok.label = "dataset 1 (n=1)";
  ok.family = "tiny";
  ok.passed = true;
  ok.score = ok.max_score = 12.5;
  ok.seconds = 0.125;
  ok.diagnostics = {"a finding"};
  gpulab::grade::CaseResult slow = ok;
  slow.id = "int-large-1";
  slow.label = "hidden dataset 2 (n=1000000)";
  slow.hidden = true;
  slow.passed = false;
  slow.score = 0;
  slow.feedback = "timed out after 30 s";
  slow.failure = FailureKind::timeout;
  gpulab::grade::CaseResult skipped = slow;
  skipped.feedback = "not run: ...";
  skipped.run = false;
  p.cases = {ok, slow, skipped};
  gpulab::grade::PerformanceResult speed;
  speed.status = gpulab::grade::PerformanceStatus::implausible;
  speed.counted = true;
  speed.max_score = 15;
  speed.seconds = 1e-5;
  speed.runs = 13;
  speed.rate = 9000.5;
  speed.rate_unit = "GB/s";
  speed.device = "NVIDIA H100";
  speed.case_label = "timed case (n=67108864)";
  speed.calls = speed.calls_checked = 13;
  speed.review = "faster than the device can go";
  speed.feedback = "...";
  p.performance = speed;
  p.sanitized = true;
  p.sanitizer_case = "dataset 1 (n=1)";
  p.sanitizer_findings = {"racecheck: hazard"};
  p.counters_case = "dataset 1 (n=1)";
  p.counters_source = "emulator";
  p.counters = {{"k", {{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 4.0}}}};
  gpulab::grade::PartResult q;
  q.name = "float";
  q.signature = "void reduce_f(const float* in, float* out, int n)";
  q.max_score = 35;
  gpulab::grade::CaseResult wrong = ok;
  wrong.passed = false;
  wrong.score = 0;
  wrong.feedback = "out[0] = 1, expected 2; 1 of 1 wrong";
  wrong.failure = FailureKind::wrong_answer;
  q.cases = {wrong};
  g.parts = {p, q};
  return g;
}

// The message of the error reading `j`, "" if it reads.
std::string refusal(const json& j) {
  try {
    results_from_json(j, "class/alice.json");
  } catch (const ResultsFormatError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("results model: write, read back, equal", "[reports][results-model]") {
  const GradeResult g = sample();
  const gpulab::grade::ResultsRecord written = gpulab::grade::results_record(g);
  const json j = gpulab::grade::detailed_results(g);
  CHECK(j == gpulab::grade::to_json(written));
  // Through text, as a file holds it.
  const gpulab::grade::ResultsRecord back = results_from_json(json::parse(j.dump(2)), "alice.json");
  CHECK(back == written);
  CHECK(gpulab::grade::to_json(back) == j);
  REQUIRE(back.parts.size() == 2);
  CHECK(back.parts[0].cases[0].failure_kind == FailureKind::none);
  CHECK(back.parts[0].cases[1].failure_kind == FailureKind::timeout);
  CHECK(back.parts[1].cases[0].failure_kind == FailureKind::wrong_answer);
  REQUIRE(back.parts[0].performance);
  CHECK(back.parts[0].performance->status == gpulab::grade::PerformanceStatus::implausible);
  CHECK(back.parts[0].performance->review == "faster than the device can go");
  CHECK(back.part("float") == &back.parts[1]);
  CHECK(back.part("double") == nullptr);
  // The enumerations are written with their words.
  CHECK(j["parts"][0]["performance"]["status"] == "implausible");
  CHECK(j["parts"][0]["cases"][1]["failure_kind"] == "timeout");

  // And from a file.
  gpulab_test::TempDir d;
  std::ofstream(d / "alice.json") << j.dump(2);
  CHECK(gpulab::grade::read_results_file(d / "alice.json") == written);
  CHECK_THROWS_WITH(gpulab::grade::read_results_file(d / "bob.json"), Catch::Contains("bob.json"));
  std::ofstream(d / "carol.json") << "{ not json";
  CHECK_THROWS_WITH(gpulab::grade::read_results_file(d / "carol.json"),
                    Catch::Contains("carol.json") && Catch::Contains("not valid JSON"));
}

TEST_CASE("results model: a renamed or missing key is refused, naming the file and the key",
          "[reports][results-model]") {
  const json good = gpulab::grade::detailed_results(sample());
  REQUIRE(refusal(good).empty());

  json renamed = good;
  renamed["parts"][1]["cases"][0]["pass"] = renamed["parts"][1]["cases"][0]["passed"];
  renamed["parts"][1]["cases"][0].erase("passed");
  CHECK_THAT(refusal(renamed), Catch::Contains("class/alice.json") && Catch::Contains("parts[1].cases[0]") &&
                                   Catch::Contains("'passed' is missing"));

  json top = good;
  top.erase("score");
  CHECK_THAT(refusal(top), Catch::Contains("class/alice.json: key 'score' is missing"));

  json speed = good;
  speed["parts"][0]["performance"].erase("seconds");
  CHECK_THAT(refusal(speed), Catch::Contains("parts[0].performance") && Catch::Contains("'seconds'"));
}

TEST_CASE("results model: a mistyped value or an unknown word is refused", "[reports][results-model]") {
  const json good = gpulab::grade::detailed_results(sample());
  json text_score = good;
  text_score["parts"][0]["score"] = "51.5";
  CHECK_THAT(refusal(text_score),
             Catch::Contains("parts[0].score") && Catch::Contains("expected a number, found the string \"51.5\""));

  json status = good;
  status["parts"][0]["performance"]["status"] = "fast";
  CHECK_THAT(refusal(status),
             Catch::Contains("parts[0].performance.status") && Catch::Contains("unknown value \"fast\""));

  json kind = good;
  kind["parts"][0]["cases"][1]["failure_kind"] = "slow";
  CHECK_THAT(refusal(kind), Catch::Contains("parts[0].cases[1].failure_kind") && Catch::Contains("\"slow\""));

  json schema = good;
  schema["schema"] = "gpulab-results/2";
  CHECK_THAT(refusal(schema), Catch::Contains("gpulab-results/2"));

  json diagnostics = good;
  diagnostics["parts"][0]["cases"][0]["diagnostics"] = json::array({1});
  CHECK_THAT(refusal(diagnostics), Catch::Contains("parts[0].cases[0].diagnostics[0]"));
}

TEST_CASE("results model: a case without failure_kind (an older gpulab) reads as unknown", "[reports][results-model]") {
  json old = gpulab::grade::detailed_results(sample());
  for (json& p : old["parts"])
    for (json& c : p["cases"]) c.erase("failure_kind");
  const gpulab::grade::ResultsRecord r = results_from_json(old, "old.json");
  CHECK(r.parts[0].cases[1].failure_kind == FailureKind::unknown);
}
