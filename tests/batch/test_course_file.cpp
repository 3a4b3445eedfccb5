// The course file of `--course`: both policies read, and every mistake an
// error that names the file and the key (unknown keys, bad dates, offsets,
// times a daylight-saving change skips or repeats, negative or out-of-range
// numbers, both or neither policy, an unknown time zone, a lab not listed).
#include <catch2/catch.hpp>

#include "late/course_file.hpp"

using Catch::Contains;
using gpulab::late::parse_course_file;

namespace {
const char* kPenaltyCourse = R"({
  "time_zone": "America/New_York",
  "grace_minutes": 15,
  "labs": {
    "histogram": {"due": "2026-11-20 23:59", "late_due": "2026-11-23T23:59:30"},
    "scan": {"due": "2026-12-04 17:00"}
  },
  "penalty": {"percent_per_day": 10, "max_percent": 30}
})";

// A course file with one key replaced: `edit` is spliced into the penalty course above.
std::string with(const std::string& from, const std::string& to) {
  std::string s = kPenaltyCourse;
  const size_t at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}
}  // namespace

TEST_CASE("course file: a penalty course", "[batch][late]") {
  const auto c = parse_course_file(kPenaltyCourse, "course.json");
  CHECK(c.time_zone == "America/New_York");
  CHECK(c.grace_minutes == 15);
  REQUIRE(c.penalty);
  CHECK_FALSE(c.late_days);
  CHECK(c.penalty->percent_per_day == 10);
  CHECK(c.penalty->max_percent == 30);
  const auto& h = c.deadlines("histogram");
  // 23:59 in New York in November (EST, UTC-5) is 04:59 UTC the next day.
  CHECK(gpulab::late::format_utc(h.due) == "2026-11-21T04:59:00Z");
  REQUIRE(h.late_due);
  CHECK(gpulab::late::format_utc(*h.late_due) == "2026-11-24T04:59:30Z");
  CHECK_FALSE(c.deadlines("scan").late_due);
  CHECK_THROWS_WITH(c.deadlines("matmul"),
                    Contains("course.json: labs: no entry for lab 'matmul'") && Contains("histogram, scan"));
}

TEST_CASE("course file: a late-day course with per-student budgets", "[batch][late]") {
  const auto c = parse_course_file(R"({"time_zone": "Europe/Berlin", "labs": {"scan": {"due": "2026-03-01 12:00"}},
      "late_days": {"budget": 4, "students": {"ada@example.edu": {"budget": 6, "used_before": 5}, "1002": {"used_before": 1}}}})",
                                   "c.json");
  REQUIRE(c.late_days);
  CHECK_FALSE(c.penalty);
  CHECK(c.grace_minutes == 0);
  CHECK(c.late_days->budget == 4);
  CHECK(c.late_days->students.at("ada@example.edu").budget == 6);
  CHECK(c.late_days->students.at("ada@example.edu").used_before == 5);
  CHECK_FALSE(c.late_days->students.at("1002").budget);
  CHECK(c.late_days->students.at("1002").used_before == 1);
}

TEST_CASE("course file: unknown keys are errors naming the file and the key", "[batch][late]") {
  CHECK_THROWS_WITH(parse_course_file(with("\"grace_minutes\"", "\"grace\""), "course.json"),
                    Contains("course.json: grace: unknown key") && Contains("grace_minutes"));
  CHECK_THROWS_WITH(parse_course_file(with("\"late_due\"", "\"lateDue\""), "course.json"),
                    Contains("course.json: labs.histogram.lateDue: unknown key (allowed here: due, late_due)"));
  CHECK_THROWS_WITH(parse_course_file(with("\"max_percent\"", "\"cap\""), "course.json"),
                    Contains("course.json: penalty.cap: unknown key"));
  CHECK_THROWS_WITH(parse_course_file(R"({"time_zone": "UTC", "labs": {"scan": {"due": "2026-03-01 12:00"}},
      "late_days": {"budget": 2, "students": {"ada": {"used": 1}}}})",
                                      "c.json"),
                    Contains("c.json: late_days.students.ada.used: unknown key"));
}

TEST_CASE("course file: bad dates are errors naming the key", "[batch][late]") {
  CHECK_THROWS_WITH(parse_course_file(with("2026-11-20 23:59", "2026-02-30 23:59"), "course.json"),
                    Contains("course.json: labs.histogram.due: '2026-02-30 23:59' is not a real date"));
  CHECK_THROWS_WITH(parse_course_file(with("2026-11-20 23:59", "20/11/2026 23:59"), "course.json"),
                    Contains("labs.histogram.due") && Contains("expected \"YYYY-MM-DD HH:MM\""));
  CHECK_THROWS_WITH(parse_course_file(with("2026-11-20 23:59", "2026-11-20 25:00"), "course.json"),
                    Contains("labs.histogram.due") && Contains("not a real date"));
  CHECK_THROWS_WITH(parse_course_file(with("2026-11-20 23:59", "2026-11-20T23:59-05:00"), "course.json"),
                    Contains("labs.histogram.due") && Contains("has an offset"));
  CHECK_THROWS_WITH(parse_course_file(with("2026-11-20 23:59", "2026-11-20T23:59:00Z"), "course.json"),
                    Contains("has an offset or 'Z'"));
  CHECK_THROWS_WITH(parse_course_file(with("\"2026-11-20 23:59\"", "20261120"), "course.json"),
                    Contains("labs.histogram.due: expected a string"));
  CHECK_THROWS_WITH(parse_course_file(with("2026-11-23T23:59:30", "2026-11-19 12:00"), "course.json"),
                    Contains("labs.histogram.late_due: must be after due"));
  // New York's clocks jump from 02:00 to 03:00 on 2026-03-08 and back from 02:00 to 01:00 on 2026-11-01.
  CHECK_THROWS_WITH(parse_course_file(with("2026-11-20 23:59", "2026-03-08 02:30"), "course.json"),
                    Contains("labs.histogram.due: 2026-03-08 02:30:00 does not exist in America/New_York"));
  CHECK_THROWS_WITH(parse_course_file(with("2026-11-20 23:59", "2026-11-01 01:30"), "course.json"),
                    Contains("labs.histogram.due: 2026-11-01 01:30:00 happens twice") &&
                        Contains("2026-11-01T01:30:00-04:00 or 2026-11-01T01:30:00-05:00"));
}

TEST_CASE("course file: numbers out of range and policies are checked", "[batch][late]") {
  CHECK_THROWS_WITH(parse_course_file(with("\"percent_per_day\": 10", "\"percent_per_day\": -5"), "course.json"),
                    Contains("course.json: penalty.percent_per_day: -5 is out of range"));
  CHECK_THROWS_WITH(parse_course_file(with("\"max_percent\": 30", "\"max_percent\": 130"), "course.json"),
                    Contains("penalty.max_percent: 130 is out of range"));
  CHECK_THROWS_WITH(parse_course_file(with("\"percent_per_day\": 10", "\"percent_per_day\": \"10\""), "course.json"),
                    Contains("penalty.percent_per_day: expected a number"));
  CHECK_THROWS_WITH(parse_course_file(with("\"grace_minutes\": 15", "\"grace_minutes\": -1"), "course.json"),
                    Contains("course.json: grace_minutes: -1 is out of range"));
  CHECK_THROWS_WITH(parse_course_file(with("\"grace_minutes\": 15", "\"grace_minutes\": 2.5"), "course.json"),
                    Contains("grace_minutes: expected a whole number"));
  CHECK_THROWS_WITH(parse_course_file(with("\"penalty\": {\"percent_per_day\": 10, \"max_percent\": 30}",
                                           "\"penalty\": {\"percent_per_day\": 10}, \"late_days\": {\"budget\": 3}"),
                                      "course.json"),
                    Contains("exactly one late policy"));
  CHECK_THROWS_WITH(
      parse_course_file(with(",\n  \"penalty\": {\"percent_per_day\": 10, \"max_percent\": 30}", ""), "course.json"),
      Contains("exactly one late policy"));
  CHECK_THROWS_WITH(parse_course_file(with("\"percent_per_day\": 10, ", ""), "course.json"),
                    Contains("penalty: missing percent_per_day"));
  CHECK_THROWS_WITH(parse_course_file(R"({"time_zone": "UTC", "labs": {"scan": {"due": "2026-03-01 12:00"}},
      "late_days": {"budget": -1}})",
                                      "c.json"),
                    Contains("c.json: late_days.budget: -1 is out of range"));
  CHECK_THROWS_WITH(parse_course_file(R"({"time_zone": "UTC", "labs": {"scan": {"due": "2026-03-01 12:00"}},
      "late_days": {"budget": 3, "students": {"ada": {"used_before": 4}}}})",
                                      "c.json"),
                    Contains("c.json: late_days.students.ada.used_before: 4 days used is more than the budget of 3"));
}

TEST_CASE("course file: time zone, labs and JSON itself", "[batch][late]") {
  CHECK_THROWS_WITH(parse_course_file(with("America/New_York", "Mars/Olympus_Mons"), "course.json"),
                    Contains("course.json: time_zone: unknown time zone 'Mars/Olympus_Mons'") && Contains("IANA"));
  CHECK_THROWS_WITH(parse_course_file(with("\"time_zone\": \"America/New_York\",", ""), "course.json"),
                    Contains("course.json: time_zone: missing"));
  CHECK_THROWS_WITH(
      parse_course_file(R"({"time_zone": "UTC", "labs": {}, "penalty": {"percent_per_day": 5}})", "c.json"),
      Contains("c.json: labs: expected an object with one entry per lab"));
  CHECK_THROWS_WITH(
      parse_course_file(R"({"time_zone": "UTC", "labs": {"scan": {}}, "penalty": {"percent_per_day": 5}})", "c.json"),
      Contains("c.json: labs.scan: missing due"));
  CHECK_THROWS_WITH(parse_course_file("{\"time_zone\": \"UTC\",", "c.json"), Contains("c.json: not valid JSON"));
  CHECK_THROWS_WITH(parse_course_file("[1, 2]", "c.json"), Contains("c.json: expected an object"));
  CHECK_THROWS_WITH(gpulab::late::read_course_file("/nonexistent/course.json"),
                    Contains("/nonexistent/course.json': no such file"));
}
