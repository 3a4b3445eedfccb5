// Tests of the result formats (grader/grade/reports): Gradescope's
// results.json (fields, test names, visibility of hidden cases, a submission
// that does not compile) and the project's own "gpulab-results/1" schema.
#include <catch2/catch.hpp>

#include <cstdio>

#include <nlohmann/json.hpp>

#include "grade/reports.hpp"
#include "grade/terminal_colour.hpp"

using gpulab::grade::CaseResult;
using gpulab::grade::GradeResult;
using gpulab::grade::PartResult;
using nlohmann::json;

namespace {
// A Gradescope test without its extra_data (tested in test_gradescope_extra_data.cpp).
json shown(json test) {
  CHECK(test.contains("extra_data"));
  test.erase("extra_data");
  return test;
}

CaseResult make_case(const std::string& part, const std::string& id, const std::string& label, bool hidden, bool passed,
                     double max, const std::string& feedback) {
  CaseResult c;
  c.part = part;
  c.id = id;
  c.label = label;
  c.family = "fam";
  c.hidden = hidden;
  c.passed = passed;
  c.max_score = max;
  c.score = passed ? max : 0;
  c.seconds = 0.25;
  c.feedback = feedback;
  c.failure = passed ? gpulab::grade::FailureKind::none : gpulab::grade::FailureKind::wrong_answer;
  return c;
}

// Two parts: "tiled" with two public cases and a hidden one, "naive" with one case.
GradeResult sample(const std::string& visibility = "after_due_date") {
  GradeResult g;
  g.lab = "matmul";
  g.lab_version = "1";
  g.submission = "/tmp/student.cu";
  g.backend = "emu";
  g.compiled = true;
  g.hidden_visibility = visibility;
  PartResult tiled;
  tiled.name = "tiled";
  tiled.signature = "void matmul(const float* a, const float* b, float* c, int m, int n, int k)";
  tiled.max_score = 90;
  tiled.cases.push_back(make_case("tiled", "tiled-tiny-1", "dataset 1 (k=1, m=1, n=1)", false, true, 30, ""));
  tiled.cases.push_back(make_case("tiled", "tiled-odd-1", "dataset 2 (k=29, m=37, n=53)", false, false, 30,
                                  "c[1][2] = 9.25, expected 5.5; 1 of 1961 wrong"));
  tiled.cases.push_back(make_case("tiled", "tiled-tiny-1", "hidden dataset 1 (k=1, m=1, n=1)", true, true, 30, ""));
  tiled.score = 60;
  PartResult naive;
  naive.name = "naive";
  naive.signature = "void naive(const float* a, float* c, int n)";
  naive.max_score = 10.0 / 3.0;
  naive.cases.push_back(make_case("naive", "naive-x-1", "dataset 1 (n=5)", false, true, 10.0 / 3.0,
                                  "correct, but the emulator reported:\n  emulator: something"));
  naive.score = 10.0 / 3.0;
  g.parts = {tiled, naive};
  g.score = 60 + 10.0 / 3.0;
  g.max_score = 90 + 10.0 / 3.0;
  g.seconds = 12.2;
  return g;
}
}  // namespace

TEST_CASE("reports: gradescope results.json has the fields Gradescope reads", "[reports]") {
  const json r = gpulab::grade::gradescope_results(sample());
  CHECK(r.at("score") == 63.33);
  CHECK(r.at("execution_time") == 13);  // whole seconds, rounded up
  CHECK(r.at("execution_time").is_number_integer());
  CHECK(r.at("output") == "");
  CHECK(r.at("output_format") == "text");
  CHECK(r.at("visibility") == "visible");
  CHECK(r.at("stdout_visibility") == "hidden");
  const json& tests = r.at("tests");
  REQUIRE(tests.size() == 4);
  for (const json& t : tests) {
    CHECK(t.at("name").is_string());
    CHECK(t.at("score").is_number());
    CHECK(t.at("max_score").is_number());
    CHECK((t.at("status") == "passed" || t.at("status") == "failed"));
    CHECK(t.at("output").is_string());
    CHECK(t.at("visibility").is_string());
  }
  CHECK(shown(tests[0]) == json{{"name", "tiled: dataset 1 (k=1, m=1, n=1)"},
                                {"score", 30.0},
                                {"max_score", 30.0},
                                {"status", "passed"},
                                {"output", "correct"},
                                {"visibility", "visible"}});
  CHECK(shown(tests[1]) == json{{"name", "tiled: dataset 2 (k=29, m=37, n=53)"},
                                {"score", 0.0},
                                {"max_score", 30.0},
                                {"status", "failed"},
                                {"output", "c[1][2] = 9.25, expected 5.5; 1 of 1961 wrong"},
                                {"visibility", "visible"}});
  CHECK(tests[3].at("name") == "naive: dataset 1 (n=5)");
  CHECK(tests[3].at("score") == 3.33);
  CHECK(tests[3].at("max_score") == 3.33);
  CHECK(tests[3].at("output") == "correct, but the emulator reported:\n  emulator: something");
}

TEST_CASE("reports: every test name starts with its part's name", "[reports]") {
  const json r = gpulab::grade::gradescope_results(sample());
  for (const json& t : r.at("tests")) {
    const std::string name = t.at("name");
    CHECK((name.rfind("tiled: ", 0) == 0 || name.rfind("naive: ", 0) == 0));
  }
}

TEST_CASE("reports: hidden cases get the configured visibility, public ones stay visible", "[reports]") {
  const std::string visibility = GENERATE("after_due_date", "hidden", "after_published", "visible");
  const json r = gpulab::grade::gradescope_results(sample(visibility));
  const json& hidden = r.at("tests")[2];
  CHECK(hidden.at("name") == "tiled: hidden dataset 1 (k=1, m=1, n=1)");
  CHECK(hidden.at("visibility") == visibility);
  CHECK(r.at("tests")[0].at("visibility") == "visible");
  CHECK(r.at("tests")[1].at("visibility") == "visible");
}

TEST_CASE("reports: a submission that does not compile scores 0 with the compiler's words", "[reports]") {
  GradeResult g = sample();
  g.compiled = false;
  g.compile_output = "/tmp/student.cu:12:5: error: 'foo' was not declared in this scope\n";
  for (PartResult& p : g.parts) {
    p.cases.clear();
    p.score = 0;
  }
  g.score = 0;
  const json r = gpulab::grade::gradescope_results(g);
  CHECK(r.at("score") == 0);
  CHECK(r.at("output") ==
        "Your submission did not compile, so it scores 0. The compiler said:\n\n"
        "/tmp/student.cu:12:5: error: 'foo' was not declared in this scope\n");
  const json& tests = r.at("tests");
  REQUIRE(tests.size() == 2);
  CHECK(shown(tests[0]) == json{{"name", "tiled: compiles"},
                                {"score", 0},
                                {"max_score", 90.0},
                                {"status", "failed"},
                                {"output", "did not compile (see the compiler messages above)"},
                                {"visibility", "visible"}});
  CHECK(tests[1].at("name") == "naive: compiles");
  CHECK(tests[1].at("max_score") == 3.33);
}

TEST_CASE("reports: compiler warnings of a compiling submission go to the top-level output", "[reports]") {
  GradeResult g = sample();
  g.compile_output = "/tmp/student.cu:3:7: warning: unused variable 'x'\n";
  const json r = gpulab::grade::gradescope_results(g);
  CHECK(r.at("output") == "Compiler warnings:\n/tmp/student.cu:3:7: warning: unused variable 'x'\n");
  CHECK(r.at("score") == 63.33);
}

TEST_CASE("reports: detailed results follow schema gpulab-results/1", "[reports]") {
  GradeResult g = sample();
  g.parts[0].cases[1].diagnostics = {"kernel 'k' block (1,0,0) thread (3,0,0): read of uninitialised shared memory"};
  const json r = gpulab::grade::detailed_results(g);
  CHECK(r.at("schema") == "gpulab-results/1");
  CHECK(r.at("lab") == "matmul");
  CHECK(r.at("lab_version") == "1");
  CHECK(r.at("submission") == "/tmp/student.cu");
  CHECK(r.at("backend") == "emu");
  CHECK(r.at("compiled") == true);
  CHECK(r.at("compile_output") == "");
  CHECK(r.at("score").get<double>() == Approx(63.3333333));
  CHECK(r.at("max_score").get<double>() == Approx(93.3333333));
  CHECK(r.at("seconds").get<double>() == Approx(12.2));
  REQUIRE(r.at("parts").size() == 2);
  const json& p = r.at("parts")[0];
  CHECK(p.at("name") == "tiled");
  CHECK(p.at("signature") == "void matmul(const float* a, const float* b, float* c, int m, int n, int k)");
  CHECK(p.at("score") == 60.0);
  CHECK(p.at("max_score") == 90.0);
  REQUIRE(p.at("cases").size() == 3);
  CHECK(p.at("cases")[1] == json{{"id", "tiled-odd-1"},
                                 {"label", "dataset 2 (k=29, m=37, n=53)"},
                                 {"family", "fam"},
                                 {"hidden", false},
                                 {"passed", false},
                                 {"score", 0.0},
                                 {"max_score", 30.0},
                                 {"seconds", 0.25},
                                 {"feedback", "c[1][2] = 9.25, expected 5.5; 1 of 1961 wrong"},
                                 {"diagnostics", g.parts[0].cases[1].diagnostics},
                                 {"failure_kind", "wrong_answer"}});
  CHECK(p.at("cases")[2].at("hidden") == true);
  CHECK(p.at("cases")[2].at("failure_kind") == "none");
}

TEST_CASE("reports: the text report lists parts, cases and the score", "[reports]") {
  const std::string t = gpulab::grade::text_report(sample(), false, true);
  CHECK_THAT(t, Catch::StartsWith("gpulab matmul (emu backend): /tmp/student.cu\n"));
  CHECK_THAT(t, Catch::Contains("part tiled  void matmul("));
  CHECK_THAT(t, Catch::Contains("FAIL"));
  CHECK_THAT(t, Catch::Contains("c[1][2] = 9.25, expected 5.5"));
  CHECK_THAT(t, Catch::Contains("part tiled: 60 / 90"));
  CHECK_THAT(t, Catch::EndsWith("score: 63.33 / 93.33\n"));
  CHECK_THAT(t, !Catch::Contains("\033["));
}

TEST_CASE("reports: the text report's performance hints are the profile's hints, not its observations", "[reports]") {
  GradeResult g = sample();
  gpulab::profile::ProfileReport profile;
  gpulab::profile::Finding hint;
  hint.sentence = "student.cu:23 (kernel 'k'): each global load of a warp reads 32 sectors where 4 would do";
  gpulab::profile::Finding observation;
  observation.sentence = "async_copy.hpp:129 (kernel 'k'): each shared-memory store of a warp takes 6.0 passes";
  observation.hint = false;
  observation.unconfirmed = "the emulator's own code for an asynchronous copy";
  profile.findings = {hint, observation};
  g.parts[0].profile = profile;
  const std::string t = gpulab::grade::text_report(g, false, true);
  CHECK_THAT(t, Catch::Contains("performance hints (emulator, no points):\n      student.cu:23"));
  CHECK_THAT(t, !Catch::Contains("async_copy.hpp"));
  // Only observations: no hints heading at all.
  profile.findings = {observation};
  g.parts[0].profile = profile;
  CHECK_THAT(gpulab::grade::text_report(g, false, true), !Catch::Contains("performance hints"));
}

TEST_CASE("reports: the text report's columns and the colours of a terminal", "[reports]") {
  GradeResult g = sample();
  g.compile_output = "student.cu:3: warning: unused variable 'x'";
  const std::string plain = gpulab::grade::text_report(g, false, true);
  // Fixed columns: the tag in 4, the label in 44, points right- and left-aligned in 6, seconds.
  CHECK_THAT(plain, Catch::Contains("\n  ok   dataset 1 (k=1, m=1, n=1)                        30/30       0.25s\n"));
  CHECK_THAT(plain, Catch::Contains("\n  FAIL dataset 2 (k=29, m=37, n=53)                      0/30       0.25s\n"));
  CHECK_THAT(plain, Catch::Contains("\n  ok   dataset 1 (n=5)                                3.33/3.33     0.25s\n"));
  const std::string coloured = gpulab::grade::text_report(g, true, true);
  CHECK_THAT(coloured, Catch::Contains("\033[32mok  \033[0m dataset 1 (k=1, m=1, n=1)"));  // green pass
  CHECK_THAT(coloured, Catch::Contains("\033[31mFAIL\033[0m dataset 2"));                  // red fail
  CHECK_THAT(coloured, Catch::Contains("\033[33mcompiler warnings:\033[0m\n"));            // yellow warning
  CHECK_THAT(coloured, Catch::Contains("\033[33mc[1][2] = 9.25, expected 5.5"));           // yellow hint
  CHECK_THAT(coloured, Catch::Contains("\033[1mscore: 63.33 / 93.33\033[0m\n"));
  // The same text once the escapes are taken out.
  std::string stripped;
  for (size_t i = 0; i < coloured.size(); ++i) {
    if (coloured[i] == '\033') i = coloured.find('m', i);
    else stripped += coloured[i];
  }
  CHECK(stripped == plain);
}

TEST_CASE("reports: colours only on a terminal and without NO_COLOR", "[reports]") {
  using gpulab::grade::colour_wanted;
  CHECK(colour_wanted(true, nullptr));
  CHECK(colour_wanted(true, ""));  // https://no-color.org: set and not empty
  CHECK_FALSE(colour_wanted(true, "1"));
  CHECK_FALSE(colour_wanted(false, nullptr));
  std::FILE* file = std::tmpfile();
  REQUIRE(file);
  CHECK_FALSE(colour_wanted(file));  // a file is not a terminal
  std::fclose(file);
}
