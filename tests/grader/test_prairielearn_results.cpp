// Tests of PrairieLearn's results.json (grader/grade/prairielearn_results):
// the score as a fraction, one test per case with points and max_points,
// gradable false with format_errors when nothing could be graded, hidden
// cases without their feedback, and the 1 MB limit on the file.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <string>

#include "grade/prairielearn_results.hpp"

using gpulab::grade::CaseResult;
using gpulab::grade::GradeResult;
using gpulab::grade::PartResult;
using gpulab::grade::PerformanceResult;
using gpulab::grade::prairielearn_results;
using nlohmann::json;

namespace {
CaseResult make_case(const std::string& id, const std::string& label, bool hidden, bool passed, double max,
                     const std::string& feedback) {
  CaseResult c;
  c.part = "text";
  c.id = id;
  c.label = label;
  c.family = "tiny";
  c.sizes = {{"n", 31}};
  c.hidden = hidden;
  c.passed = passed;
  c.max_score = max;
  c.score = passed ? max : 0;
  c.seconds = 0.5;
  c.feedback = feedback;
  return c;
}

// One part of 30 points: two public cases (one wrong) and a hidden one that is wrong too.
GradeResult sample() {
  GradeResult g;
  g.lab = "histogram";
  g.backend = "emu";
  g.compiled = true;
  g.hidden_visibility = "after_due_date";
  PartResult p;
  p.name = "text";
  p.signature = "void histogram_text(const char* text, unsigned int* bins, size_t n)";
  p.max_score = 30;
  p.cases.push_back(make_case("text-tiny-1", "dataset 1 (n=31)", false, true, 10, ""));
  p.cases.push_back(make_case("text-tiny-2", "dataset 2 (n=33)", false, false, 10,
                              "bins[3] = 7, expected 8; 1 of 7 wrong\nhint: count every letter"));
  p.cases.push_back(make_case("text-tiny-1", "hidden dataset 1 (n=31)", true, false, 10, "bins[0] = 1, expected 2"));
  p.score = 10;
  g.parts = {p};
  g.score = 10;
  g.max_score = 30;
  return g;
}
}  // namespace

TEST_CASE("prairielearn: score is the fraction of the maximum, one test per case", "[reports][prairielearn]") {
  const json r = prairielearn_results(sample());
  CHECK(r.at("gradable") == true);
  CHECK(r.at("score").get<double>() == Approx(1.0 / 3.0).margin(1e-6));
  CHECK_FALSE(r.contains("format_errors"));
  CHECK(r.at("message").get<std::string>().find("1 of 3 dataset cases passed; 10 of 30 points") != std::string::npos);
  const json& tests = r.at("tests");
  REQUIRE(tests.size() == 3);
  for (const json& t : tests) {
    for (const char* k : {"name", "description", "message", "output"}) CHECK(t.at(k).is_string());
    CHECK(t.at("points").is_number());
    CHECK(t.at("max_points") == 10.0);
  }
  CHECK(tests[0].at("name") == "text: dataset 1 (n=31)");
  CHECK(tests[0].at("points") == 10.0);
  CHECK(tests[0].at("message") == "correct");
  CHECK(tests[1].at("points") == 0);
  CHECK(tests[1].at("message") == "bins[3] = 7, expected 8; 1 of 7 wrong");  // the first line
  CHECK(tests[1].at("output") == "bins[3] = 7, expected 8; 1 of 7 wrong\nhint: count every letter");
  CHECK(tests[1].at("description").get<std::string>().find("text-tiny-2") != std::string::npos);
}

TEST_CASE("prairielearn: a hidden case shows its points but not its feedback, unless made visible",
          "[reports][prairielearn]") {
  const json hidden = prairielearn_results(sample()).at("tests")[2];
  CHECK(hidden.at("name") == "text: hidden dataset 1 (n=31)");
  CHECK(hidden.at("points") == 0);
  CHECK(hidden.at("max_points") == 10.0);
  CHECK(hidden.at("output") == "");
  CHECK(hidden.at("message").get<std::string>().find("expected") == std::string::npos);
  GradeResult g = sample();
  g.hidden_visibility = "visible";
  CHECK(prairielearn_results(g).at("tests")[2].at("output") == "bins[0] = 1, expected 2");
}

TEST_CASE("prairielearn: full marks are exactly 1 despite float noise in the sum", "[reports][prairielearn]") {
  GradeResult g = sample();
  for (CaseResult& c : g.parts[0].cases) c.passed = true, c.score = c.max_score, c.feedback.clear();
  g.score = 30.000000000000007;
  CHECK(prairielearn_results(g).at("score") == 1.0);
  g.score = 29.999999999999996;
  CHECK(prairielearn_results(g).at("score") == 1.0);
  g.max_score = 0;  // nothing to score (a part selection without points): never a division by zero
  CHECK(prairielearn_results(g).at("score") == 0.0);
}

TEST_CASE("prairielearn: a submission that does not compile is not gradable, with the compiler's errors",
          "[reports][prairielearn]") {
  GradeResult g = sample();
  g.compiled = false;
  g.parts[0].cases.clear();
  g.score = 0;
  g.compile_output =
      "/grade/student/histogram.cu: In function 'void f()':\n"
      "/grade/student/histogram.cu:12:5: error: 'foo' was not declared in this scope\n"
      "   12 |     foo();\n"
      "/grade/student/histogram.cu:14:1: error: expected ';' before '}' token\n";
  const json r = prairielearn_results(g);
  CHECK(r.at("gradable") == false);
  CHECK(r.at("score") == 0.0);
  CHECK(r.at("tests").empty());
  const json& errors = r.at("format_errors");
  REQUIRE(errors.size() == 3);  // what happened, then each error line
  CHECK(errors[1] == "/grade/student/histogram.cu:12:5: error: 'foo' was not declared in this scope");
  CHECK(errors[2] == "/grade/student/histogram.cu:14:1: error: expected ';' before '}' token");
  CHECK(r.at("output") == g.compile_output);
  CHECK(r.at("message").get<std::string>().find("did not compile") != std::string::npos);

  g.compile_output = "";
  for (int i = 0; i < 50; ++i) g.compile_output += "a.cu:" + std::to_string(i) + ":1: error: no\n";
  const json many = prairielearn_results(g).at("format_errors");
  CHECK(many.size() == 22);  // what happened, 20 errors, and how many more
  CHECK(many.back() == "... and 30 more errors (all of them are in the output below)");

  g.compile_output = "nvcc fatal   : something unusual\n";  // no line that looks like an error: all of it
  CHECK(prairielearn_results(g).at("format_errors")[1] == g.compile_output);
}

TEST_CASE("prairielearn: a handed-in folder with nothing to grade is not gradable, saying why",
          "[reports][prairielearn]") {
  GradeResult g = sample();
  g.compiled = false;
  g.parts[0].cases.clear();
  g.not_graded = "no .cu file was handed in (expected histogram.cu)";
  const json r = prairielearn_results(g);
  CHECK(r.at("gradable") == false);
  CHECK(r.at("format_errors") == json::array({g.not_graded}));
  CHECK(r.at("message").get<std::string>().find("expected histogram.cu") != std::string::npos);
}

TEST_CASE("prairielearn: speed is a test of its own where it was measured", "[reports][prairielearn]") {
  GradeResult g = sample();
  PerformanceResult perf;
  perf.status = gpulab::grade::PerformanceStatus::scored;
  perf.counted = true;
  perf.score = 7.5;
  perf.max_score = 15;
  perf.case_label = "timed case (n=268435456)";
  perf.feedback = "1.2 ms, 0.8 x the reference";
  g.parts[0].performance = perf;
  const json tests = prairielearn_results(g).at("tests");
  REQUIRE(tests.size() == 4);
  CHECK(tests[3].at("name") == "text: speed");
  CHECK(tests[3].at("points") == 7.5);
  CHECK(tests[3].at("max_points") == 15.0);
  CHECK(tests[3].at("output") == perf.feedback);
}

TEST_CASE("prairielearn: huge feedback is cut to keep results.json under PrairieLearn's 1 MB",
          "[reports][prairielearn]") {
  GradeResult g = sample();
  g.hidden_visibility = "visible";
  std::string big;
  while (big.size() < 2'000'000) big += "\xc3\xa9";  // 'é': a cut must not split a character
  for (CaseResult& c : g.parts[0].cases) c.feedback = big;
  g.compile_output = big;  // warnings of a compiling submission
  const json r = prairielearn_results(g);
  const std::string text = r.dump();  // throws on invalid UTF-8
  CHECK(text.size() < 1024 * 1024);
  CHECK(r.at("tests")[1].at("output").get<std::string>().find("more bytes left out") != std::string::npos);
  CHECK(r.at("output").get<std::string>().rfind("Compiler warnings:\n", 0) == 0);
}
