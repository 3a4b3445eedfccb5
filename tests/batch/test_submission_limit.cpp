// The Gradescope submission limit: reading submission_metadata.json, counting
// the gradings in the 24 hours before a fixed 'now', the results carried
// forward beyond the limit (and never counted themselves), metadata that
// cannot be used (graded anyway, and said), and times shown in the metadata's
// own UTC offset.
#include <catch2/catch.hpp>

#include "bundle/submission_limit.hpp"
#include "grader_test_support.hpp"

using namespace gpulab::bundle;
using nlohmann::json;
using std::chrono::hours;
using std::chrono::microseconds;
using std::chrono::minutes;

namespace {
TimePoint at(const std::string& text) {
  const auto t = parse_offset_time(text);
  REQUIRE(t);
  return t->at;
}

json graded(double score, const std::string& output = "") {
  return {{"score", score},
          {"output", output},
          {"tests", json::array({{{"name", "int: dataset 1 (n=1)"},
                                  {"score", score},
                                  {"max_score", 50.0},
                                  {"status", score >= 50.0 ? "passed" : "failed"},
                                  {"output", "out[0] = 3, expected 4"},
                                  {"visibility", "visible"}}})}};
}

// A submission_metadata.json made at `created_at` with these earlier submissions (time, results).
SubmissionMetadata metadata(const std::string& created_at, const std::vector<std::pair<std::string, json>>& previous) {
  json j = {{"id", 123456},
            {"created_at", created_at},
            {"assignment", {{"title", "Reduction"}, {"total_points", "100.0"}}},
            {"users", json::array({{{"email", "ada@example.edu"}, {"id", 1}, {"name", "Ada"}}})},
            {"previous_submissions", json::array()}};
  for (const auto& [time, results] : previous) {
    json e = {{"submission_time", time}, {"results", results}};
    if (results.is_object() && results.contains("score")) e["score"] = results["score"];
    j["previous_submissions"].push_back(e);
  }
  return parse_submission_metadata(j.dump(), "submission_metadata.json");
}

LimitDecision decide(const SubmissionMetadata& m, int limit) {
  return decide_submission_limit(m, limit, m.created_at.at);
}

const std::string kNow = "2026-03-10T15:00:00.000000-07:00";
}  // namespace

TEST_CASE("submission limit: Gradescope's times, with their offsets", "[batch][gradescope][limit]") {
  const auto t = parse_offset_time("2018-07-01T14:22:32.365935-07:00");
  REQUIRE(t);
  CHECK(t->offset == minutes(-420));
  CHECK(t->at == at("2018-07-01T21:22:32.365935Z"));
  CHECK(t->at.time_since_epoch() % std::chrono::seconds(1) == microseconds(365935));
  CHECK(at("2018-07-01 14:22:32.365935123 -07:00") == t->at);  // the export's form, nanoseconds dropped
  CHECK(at("2018-07-01T14:22:32.365935-0700") == t->at);
  CHECK(parse_offset_time("2018-07-02T03:52:32+05:30")->offset == minutes(330));
  CHECK(parse_offset_time("2018-07-02T00:00:00Z")->offset == minutes(0));
  CHECK_FALSE(parse_offset_time("2018-02-30T10:00:00Z"));  // no such day
  CHECK_FALSE(parse_offset_time("2018-07-01T14:22:32"));   // no offset: which time is it?
  CHECK_FALSE(parse_offset_time("yesterday"));
  CHECK_FALSE(parse_offset_time("2018-07-01T14:22:32+25:00"));

  CHECK(readable_time(t->at, t->offset) == "Sunday 1 July 2018, 14:23 (UTC-07:00)");  // rounded up
  CHECK(readable_time(t->at, t->offset, false) == "Sunday 1 July 2018, 14:22 (UTC-07:00)");
  CHECK(readable_time(t->at, minutes(330)) == "Monday 2 July 2018, 02:53 (UTC+05:30)");
  CHECK(readable_time(t->at, minutes(0)) == "Sunday 1 July 2018, 21:23 (UTC)");
  CHECK(iso_time(t->at, t->offset) == "2018-07-01T14:22:33-07:00");
  CHECK(iso_time(t->at, minutes(0)) == "2018-07-01T21:22:33+00:00");
  CHECK(readable_span(hours(3) + minutes(12)) == "3 h 12 min");
  CHECK(readable_span(minutes(45) - microseconds(1)) == "45 min");
  CHECK(readable_span(hours(24)) == "24 h");
  CHECK(readable_span(microseconds(3)) == "1 min");
}

TEST_CASE("submission limit: under the limit the submission is graded and told how many remain",
          "[batch][gradescope][limit]") {
  const auto m = metadata(kNow, {{"2026-03-10T09:00:00.000000-07:00", graded(20)}});
  const LimitDecision d = decide(m, 3);
  CHECK(d.checked);
  CHECK(d.grade);
  CHECK(d.graded_in_window == 1);
  CHECK_FALSE(d.next_grading);
  CHECK(submission_limit_note(d) ==
        "Submission limit: this is graded submission 2 of the 3 allowed in any 24 hours. 1 more submission can be "
        "graded now.");

  const LimitDecision first = decide(metadata(kNow, {}), 3);
  CHECK(first.grade);
  CHECK(first.graded_in_window == 0);
  CHECK_THAT(submission_limit_note(first), Catch::Contains("graded submission 1 of the 3") &&
                                               Catch::Contains("2 more submissions can be graded now."));
}

TEST_CASE("submission limit: the last grading the limit allows says when the next one comes",
          "[batch][gradescope][limit]") {
  const auto m = metadata(
      kNow, {{"2026-03-09T16:30:00.000000-07:00", graded(10)}, {"2026-03-10T09:00:00.000000-07:00", graded(20)}});
  const LimitDecision d = decide(m, 3);
  CHECK(d.grade);
  CHECK(d.graded_in_window == 2);
  REQUIRE(d.next_grading);
  CHECK(*d.next_grading == at("2026-03-10T16:30:00-07:00"));  // the oldest of the window leaves it
  CHECK(submission_limit_note(d) ==
        "Submission limit: this is graded submission 3 of the 3 allowed in any 24 hours. Your next submission can "
        "be graded from Tuesday 10 March 2026, 16:30 (UTC-07:00), in 1 h 30 min.");

  // A limit of 1: the next grading is 24 hours after this one.
  const LimitDecision one = decide(metadata(kNow, {}), 1);
  CHECK(one.grade);
  REQUIRE(one.next_grading);
  CHECK(*one.next_grading == at("2026-03-11T15:00:00-07:00"));
}

TEST_CASE("submission limit: at the limit the submission is not graded and the last grading is carried forward",
          "[batch][gradescope][limit]") {
  const auto m = metadata(kNow, {{"2026-03-08T10:00:00.000000-07:00", graded(50, "old")},  // outside the window
                                 {"2026-03-09T16:30:00.000000-07:00", graded(10)},
                                 {"2026-03-10T09:00:00.000000-07:00", graded(20, "Compiler warnings:\nline 3")}});
  const LimitDecision d = decide(m, 2);
  CHECK_FALSE(d.grade);
  CHECK(d.graded_in_window == 2);
  REQUIRE(d.next_grading);
  CHECK(*d.next_grading == at("2026-03-10T16:30:00-07:00"));
  CHECK(d.carried_from == 2);  // the last graded, not the best

  const json r = carried_forward_results(m, d, 1);
  CHECK(r["score"] == 20.0);  // the score does not drop to 0
  CHECK(r["tests"] == m.previous[2].results["tests"]);
  CHECK(r["execution_time"] == 1);
  CHECK(r["output_format"] == "text");
  const std::string output = r["output"];
  CHECK_THAT(output, Catch::StartsWith("Submission limit reached: at most 2 submissions are graded in any 24 hours, "
                                       "and 2 of yours were graded in the 24 hours before this one, so this "
                                       "submission was not graded.\n"));
  CHECK_THAT(output, Catch::Contains("Your next submission can be graded from Tuesday 10 March 2026, 16:30 "
                                     "(UTC-07:00), in 1 h 30 min."));
  CHECK_THAT(output, Catch::Contains("The score and tests below are those of your last graded submission, carried "
                                     "forward."));
  CHECK_THAT(output, Catch::EndsWith("Your last graded submission was made Tuesday 10 March 2026, 09:00 "
                                     "(UTC-07:00). Its output:\n\nCompiler warnings:\nline 3"));
  CHECK(is_carried_forward(r));
  const json& mark = r["extra_data"][kSubmissionLimitKey];
  CHECK(mark["max_submissions_per_day"] == 2);
  CHECK(mark["graded_in_24_hours"] == 2);
  CHECK(mark["next_grading"] == "2026-03-10T16:30:00-07:00");
  CHECK(mark["carried_from"] == "2026-03-10T09:00:00.000000-07:00");
}

TEST_CASE("submission limit: more gradings than the limit (it was lowered) wait for enough of them to leave",
          "[batch][gradescope][limit]") {
  const auto m = metadata(kNow, {{"2026-03-09T16:00:00-07:00", graded(10)},
                                 {"2026-03-09T18:00:00-07:00", graded(20)},
                                 {"2026-03-10T08:00:00-07:00", graded(30)},
                                 {"2026-03-10T10:00:00-07:00", graded(40)}});
  const LimitDecision d = decide(m, 2);
  CHECK_FALSE(d.grade);
  CHECK(d.graded_in_window == 4);
  CHECK(*d.next_grading == at("2026-03-11T08:00:00-07:00"));  // then only 10:00 is left in the window
  CHECK(carried_forward_results(m, d, 0)["score"] == 40.0);
}

TEST_CASE("submission limit: the window is the 24 hours before this submission", "[batch][gradescope][limit]") {
  // Exactly 24 hours before: out of the window. One microsecond later: in it.
  CHECK(decide(metadata(kNow, {{"2026-03-09T15:00:00.000000-07:00", graded(10)}}), 1).grade);
  const LimitDecision in = decide(metadata(kNow, {{"2026-03-09T15:00:00.000001-07:00", graded(10)}}), 1);
  CHECK_FALSE(in.grade);
  CHECK(*in.next_grading == at("2026-03-10T15:00:00.000001-07:00"));
  // Times in other offsets are the same instants: 22:00 UTC the day before is 15:00 at -07:00.
  CHECK(decide(metadata(kNow, {{"2026-03-09T22:00:00Z", graded(10)}}), 1).grade);
  CHECK_FALSE(decide(metadata(kNow, {{"2026-03-09T22:00:01Z", graded(10)}}), 1).grade);
  // Listed submissions made after this one (an old submission regraded) are not counted.
  CHECK(decide(metadata(kNow, {{"2026-03-10T15:00:01-07:00", graded(10)}}), 1).grade);
  // 'now' is the argument, not the clock: the same metadata decided a day later grades.
  const auto m = metadata(kNow, {{"2026-03-10T09:00:00-07:00", graded(10)}});
  CHECK_FALSE(decide_submission_limit(m, 1, m.created_at.at).grade);
  CHECK(decide_submission_limit(m, 1, m.created_at.at + hours(24)).grade);
}

TEST_CASE("submission limit: carried-forward results never count, and results without the mark do",
          "[batch][gradescope][limit]") {
  const auto first = metadata("2026-03-10T10:00:00-07:00", {{"2026-03-10T09:00:00-07:00", graded(20)}});
  const LimitDecision over = decide(first, 1);
  REQUIRE_FALSE(over.grade);
  const json carried = carried_forward_results(first, over, 0);

  // Later, the carried-forward submission is itself listed; after 09:00 + 24 h the student is graded again.
  const auto later = metadata("2026-03-11T09:30:00-07:00",
                              {{"2026-03-10T09:00:00-07:00", graded(20)}, {"2026-03-10T10:00:00-07:00", carried}});
  const LimitDecision d = decide(later, 1);
  CHECK(d.grade);
  CHECK(d.graded_in_window == 0);

  // Carried twice: the last *graded* submission is carried, not a carried one (whose output already has a note).
  const auto again = metadata("2026-03-10T11:00:00-07:00", {{"2026-03-10T09:00:00-07:00", graded(20, "warnings")},
                                                            {"2026-03-10T10:00:00-07:00", carried}});
  const LimitDecision d2 = decide(again, 1);
  REQUIRE_FALSE(d2.grade);
  CHECK(d2.carried_from == 0);
  const std::string output = carried_forward_results(again, d2, 0)["output"];
  CHECK(output.find("Submission limit reached") == output.rfind("Submission limit reached"));

  // Results written by other autograders or an older gpulab have no mark: they count as gradings.
  json foreign = graded(30);
  foreign["extra_data"] = {{"language", "cuda"}};
  CHECK_FALSE(decide(metadata(kNow, {{"2026-03-10T09:00:00-07:00", foreign}}), 1).grade);
  json unmarked = foreign;
  unmarked["extra_data"][kSubmissionLimitKey] = {{"carried_forward", false}};
  CHECK_FALSE(decide(metadata(kNow, {{"2026-03-10T09:00:00-07:00", unmarked}}), 1).grade);
  // The carried results keep the other extra_data.
  const auto with_extra = metadata(kNow, {{"2026-03-10T09:00:00-07:00", foreign}});
  const json r = carried_forward_results(with_extra, decide(with_extra, 1), 0);
  CHECK(r["extra_data"]["language"] == "cuda");
  CHECK(is_carried_forward(r));

  // A submission without results (the autograder failed: nothing reached the student) is no grading.
  CHECK(decide(metadata(kNow, {{"2026-03-10T09:00:00-07:00", json()}}), 1).grade);
  CHECK(decide(metadata(kNow, {{"2026-03-10T09:00:00-07:00", json::object()}}), 1).grade);
}

TEST_CASE("submission limit: the score comes from the entry when the results have none", "[batch][gradescope][limit]") {
  json results = graded(15);
  results.erase("score");
  json j = {
      {"created_at", kNow},
      {"previous_submissions",
       json::array({{{"submission_time", "2026-03-10T09:00:00-07:00"}, {"score", "15.0"}, {"results", results}}})}};
  const auto m = parse_submission_metadata(j.dump(), "submission_metadata.json");
  REQUIRE(m.previous.size() == 1);
  CHECK(m.previous[0].score == 15.0);
  const LimitDecision d = decide(m, 1);
  REQUIRE_FALSE(d.grade);
  CHECK(carried_forward_results(m, d, 0)["score"] == 15.0);
}

TEST_CASE("submission limit: metadata that cannot be used never costs a grading", "[batch][gradescope][limit]") {
  auto problem = [](const std::string& text) {
    try {
      parse_submission_metadata(text, "/autograder/submission_metadata.json");
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("parsed");
  };
  CHECK_THAT(problem("{\"created_at\": "), Catch::StartsWith("/autograder/submission_metadata.json: not valid JSON"));
  CHECK(problem("[]") == "/autograder/submission_metadata.json: expected a JSON object, found array");
  CHECK(problem(R"({"previous_submissions": []})") ==
        "/autograder/submission_metadata.json: no \"created_at\" (the submission's time)");
  CHECK_THAT(problem(R"({"created_at": "last Tuesday", "previous_submissions": []})"),
             Catch::Contains("\"created_at\" is \"last Tuesday\", not a time"));
  CHECK(problem(R"({"created_at": "2026-03-10T15:00:00-07:00"})") ==
        "/autograder/submission_metadata.json: \"previous_submissions\" is missing");
  CHECK(problem(R"({"created_at": "2026-03-10T15:00:00-07:00", "previous_submissions": {}})") ==
        "/autograder/submission_metadata.json: \"previous_submissions\" is not a list");
  CHECK_THROWS_WITH(read_submission_metadata("/nonexistent/submission_metadata.json"),
                    Catch::Contains("/nonexistent/submission_metadata.json: cannot be read"));

  const LimitDecision d = unchecked_submission_limit(3, "/autograder/submission_metadata.json: not valid JSON (...)");
  CHECK(d.grade);
  CHECK_FALSE(d.checked);
  CHECK(submission_limit_note(d) ==
        "The submission limit (at most 3 graded submissions in any 24 hours) could not be applied: "
        "/autograder/submission_metadata.json: not valid JSON (...). This submission was graded as usual; please "
        "tell your instructor.");

  // One earlier submission without a readable time is not counted (and said); an entry that is
  // not an object is skipped.
  json j = {{"created_at", kNow},
            {"previous_submissions",
             json::array({{{"submission_time", "soon"}, {"results", graded(10)}}, {{"results", graded(10)}}, 42})}};
  const auto m = parse_submission_metadata(j.dump(), "m.json");
  const LimitDecision u = decide(m, 1);
  CHECK(u.grade);
  CHECK(u.unreadable == 2);
  CHECK_THAT(submission_limit_note(u),
             Catch::EndsWith("\n(2 earlier submissions were not counted: the submission metadata gives no readable "
                             "time for them.)"));
}

TEST_CASE("submission limit: times are shown in the metadata's offset", "[batch][gradescope][limit]") {
  // The same instants as "at the limit" above, written at +05:30: shown at +05:30.
  const auto m = metadata("2026-03-11T03:30:00+05:30",
                          {{"2026-03-10T05:00:00+05:30", graded(10)}, {"2026-03-10T21:30:00+05:30", graded(20)}});
  const LimitDecision d = decide(m, 2);
  REQUIRE_FALSE(d.grade);
  const json r = carried_forward_results(m, d, 0);
  CHECK_THAT(r["output"].get<std::string>(),
             Catch::Contains("graded from Wednesday 11 March 2026, 05:00 (UTC+05:30), in 1 h 30 min.") &&
                 Catch::Contains("made Tuesday 10 March 2026, 21:30 (UTC+05:30)."));
  CHECK(r["extra_data"][kSubmissionLimitKey]["next_grading"] == "2026-03-11T05:00:00+05:30");
  // UTC metadata: "(UTC)".
  const auto z = metadata("2026-03-10T22:00:00Z", {{"2026-03-10T16:00:00Z", graded(10)}});
  CHECK_THAT(submission_limit_note(decide(z, 1)),
             Catch::Contains("from Wednesday 11 March 2026, 16:00 (UTC), in 18 h."));
}

TEST_CASE("submission limit: the note heads freshly graded results", "[batch][gradescope][limit]") {
  const LimitDecision d = decide(metadata(kNow, {}), 2);
  json results = {
      {"score", 0}, {"output", "Your submission did not compile, so it scores 0."}, {"tests", json::array()}};
  add_submission_limit_note(results, d);
  CHECK(results["output"] ==
        "Submission limit: this is graded submission 1 of the 2 allowed in any 24 hours. 1 more submission can be "
        "graded now.\n\nYour submission did not compile, so it scores 0.");
  json silent = {{"score", 100}, {"output", ""}};
  add_submission_limit_note(silent, d);
  CHECK_THAT(silent["output"].get<std::string>(), Catch::EndsWith("can be graded now."));
}
