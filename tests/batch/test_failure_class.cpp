// Failure classes from the failure kind the grader recorded with each case
// (never from the feedback's wording), and the class of a whole submission
// (its most frequent case class; compile errors first).
#include <catch2/catch.hpp>

#include "batch/failure_class.hpp"

using gpulab::batch::summarize_failures;
using gpulab::grade::FailureKind;
using gpulab::grade::ResultsRecord;
using nlohmann::json;

namespace {
ResultsRecord graded(std::vector<gpulab::grade::PartRecord> parts) {
  ResultsRecord r;
  r.lab = "histogram";
  r.lab_version = "1";
  r.submission = "a.cu";
  r.backend = "emu";
  r.compiled = true;
  r.parts = std::move(parts);
  return r;
}

gpulab::grade::CaseRecord failed(const std::string& label, const std::string& feedback, FailureKind kind) {
  gpulab::grade::CaseRecord c;
  c.id = label;
  c.label = label;
  c.family = "tiny";
  c.feedback = feedback;
  c.failure_kind = kind;
  return c;
}

gpulab::grade::CaseRecord passed(const std::string& label) {
  gpulab::grade::CaseRecord c = failed(label, "", FailureKind::none);
  c.passed = true;
  return c;
}

gpulab::grade::PartRecord part(const std::string& name, std::vector<gpulab::grade::CaseRecord> cases) {
  gpulab::grade::PartRecord p;
  p.name = name;
  p.cases = std::move(cases);
  return p;
}
}  // namespace

TEST_CASE("failure class: a compile error, from `compiled`", "[batch][failures]") {
  ResultsRecord r = graded({});
  r.compiled = false;
  r.compile_output = "In function 'x':\nbad.cu:3:14: error: expected ';'\n";
  const auto c = summarize_failures(r);
  CHECK(c.failure_class == FailureKind::compile_error);
  CHECK(c.example == "bad.cu:3:14: error: expected ';'");
}

TEST_CASE("failure class: the most frequent recorded kind wins, ties in class order", "[batch][failures]") {
  ResultsRecord mixed = graded(
      {part("int", {passed("dataset 1 (n=1)"),
                    failed("dataset 2 (n=33)", "out[0] = 1, expected 2; 1 of 1 wrong", FailureKind::wrong_answer),
                    failed("dataset 3 (n=99)", "timed out after 30 s", FailureKind::timeout),
                    failed("dataset 4 (n=5)", "out[1] = 1, expected 3; 2 of 5 wrong", FailureKind::wrong_answer),
                    failed("dataset 5 (n=7)", "out[6] = 0, expected 3; 1 of 7 wrong", FailureKind::wrong_answer)}),
       part("float", {failed("dataset 1 (n=1)", "timed out after 30 s", FailureKind::timeout)})});
  const auto m = summarize_failures(mixed);
  CHECK(m.failure_class == FailureKind::wrong_answer);  // 3 wrong answers, 2 time-outs
  CHECK(m.example == "int: dataset 2 (n=33): out[0] = 1, expected 2; 1 of 1 wrong");
  REQUIRE(m.classes.size() == 2);
  CHECK(m.classes[0].first == FailureKind::timeout);
  CHECK(m.classes[0].second == "int: dataset 3 (n=99): timed out after 30 s");
  CHECK(m.classes[1].first == FailureKind::wrong_answer);

  // A tie goes to the class listed first (time-outs before wrong answers).
  ResultsRecord tie = mixed;
  tie.parts[0].cases.pop_back();
  CHECK(summarize_failures(tie).failure_class == FailureKind::timeout);

  CHECK(summarize_failures(graded({part("int", {passed("d")})})).failure_class == FailureKind::none);
  CHECK(summarize_failures(graded({part("int", {passed("d")})})).classes.empty());
  CHECK(gpulab::batch::failure_class_title(FailureKind::timeout) == "timed out");
}

TEST_CASE("failure class: the kind comes from the file, not from the feedback's words", "[batch][failures]") {
  // The same sentence under two kinds, and a reworded sentence under the kind it had: the kind decides.
  const ResultsRecord reworded =
      graded({part("int", {failed("dataset 1 (n=1)", "your code took too long (limit 30 s)", FailureKind::timeout),
                           failed("dataset 2 (n=2)", "timed out after 30 s", FailureKind::data_race),
                           failed("dataset 3 (n=3)", "das Ergebnis ist falsch", FailureKind::data_race)})});
  // Through the file format too: the kind is written with each case and read back.
  const ResultsRecord back = gpulab::grade::results_from_json(gpulab::grade::to_json(reworded), "r.json");
  const auto s = summarize_failures(back);
  CHECK(s.failure_class == FailureKind::data_race);
  REQUIRE(s.classes.size() == 2);
  CHECK(s.classes[0].first == FailureKind::timeout);
  CHECK(s.classes[0].second == "int: dataset 1 (n=1): your code took too long (limit 30 s)");
  CHECK(s.classes[1].first == FailureKind::data_race);
}

TEST_CASE("failure class: results from an older gpulab are unknown, with a note, never guessed", "[batch][failures]") {
  ResultsRecord r = graded({part("int", {failed("dataset 1 (n=1)", "timed out after 30 s", FailureKind::none)})});
  json j = gpulab::grade::to_json(r);
  j["parts"][0]["cases"][0].erase("failure_kind");  // as written before cases carried their kind
  const auto s = summarize_failures(gpulab::grade::results_from_json(j, "old.json"));
  CHECK(s.failure_class == FailureKind::unknown);
  CHECK_THAT(s.example, Catch::Contains("int: dataset 1 (n=1): ") && Catch::Contains("grade it again"));
  CHECK_THAT(gpulab::batch::failure_class_title(FailureKind::unknown), Catch::Contains("older gpulab"));
}
