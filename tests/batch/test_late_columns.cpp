// gradebook.csv's late columns and report.html's "Late submissions" section,
// on the made-up class of class_fixture.hpp with a penalty course.
#include <catch2/catch.hpp>

#include <sstream>

#include "class_fixture.hpp"
#include "report/gradebook_csv.hpp"
#include "report/html_report.hpp"
#include "report/late_columns.hpp"

using Catch::Contains;

namespace {
std::vector<std::string> lines_of(const std::string& csv) {
  std::istringstream in(csv);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}
}  // namespace

TEST_CASE("gradebook: late columns after the existing ones", "[batch][late][report]") {
  auto c = gpulab_test::made_up_class(false);  // lab scan: ada 100, "bob, jr." 50, <carol> 0 (compile error), dave 0
  c.students[0].record.created_at = "2026-11-20 20:50:00.000000000 -08:00";  // 23:50 in New York: on time
  c.students[1].record.newest_file_time = "2026-11-22T17:00:00Z";            // 12:00 two days later
  c.students[2].record.created_at = "2026-11-21 00:05:00 -0500";             // within the grace
  c.students[3].record.newest_file_time = "2026-11-30T12:00:00Z";            // after the late due date
  const auto course = gpulab::late::parse_course_file(R"({"time_zone": "America/New_York", "grace_minutes": 10,
      "labs": {"scan": {"due": "2026-11-20 23:59", "late_due": "2026-11-25 23:59"}},
      "penalty": {"percent_per_day": 12.5, "max_percent": 50}})",
                                                      "course.json");
  const auto late = gpulab::late::assess_class(course, c);
  const auto lines = lines_of(gpulab::report::gradebook_csv(c, &late));
  REQUIRE(lines.size() == 5);
  CHECK(lines[0] ==
        "student,inclusive (50),exclusive (50),total,max_total,status,failure_class,review,names,emails,sid,"
        "submission_id,source,on_time_score,submitted_at,time_source,hours_late,days_late,late_days_charged,"
        "penalty,final,late_status\r");
  CHECK(lines[1] ==
        "ada,50,50,100,100,graded,,,,,,,,100,2026-11-20T23:50:00-05:00,gradescope_metadata,0,0,0,0,100,on_time\r");
  // 36 hours and a minute late: two days started; 25% of 50.
  CHECK(lines[2] ==
        "\"bob, jr.\",25,25,50,100,graded,timeout,,,,,,,50,2026-11-22T12:00:00-05:00,file_time,36.02,2,0,"
        "12.5,37.5,late\r");
  CHECK(lines[3] ==
        "<carol>,0,0,0,100,compile_error,compile_error,,,,,,,0,2026-11-21T00:05:00-05:00,"
        "gradescope_metadata,0.1,0,0,0,0,grace\r");
  CHECK(lines[4] ==
        "dave,0,0,0,100,no_submission,no_submission,,,,,,,0,2026-11-30T07:00:00-05:00,file_time,"
        "223.02,10,0,0,0,not_accepted\r");

  // Without a course the gradebook is what it always was; a student without a late row gets empty cells.
  CHECK(lines_of(gpulab::report::gradebook_csv(c))[0].find("on_time_score") == std::string::npos);
  CHECK(gpulab::report::late_cells(nullptr) == ",,,,,,,,,");
}

TEST_CASE("report: a Late submissions section with the policy and the late students", "[batch][late][report]") {
  auto c = gpulab_test::made_up_class(false);
  c.students[1].record.newest_file_time = "2026-11-22T17:00:00Z";
  c.students[2].record.created_at = "2026-11-20 12:00:00 -0500";
  const auto course = gpulab::late::parse_course_file(R"({"time_zone": "America/New_York",
      "labs": {"scan": {"due": "2026-11-20 23:59"}},
      "late_days": {"budget": 2, "students": {"dave": {"used_before": 2}}}})",
                                                      "course.json");
  const auto late = gpulab::late::assess_class(course, c);
  const std::string html = gpulab::report::html_report(c, "now", std::nullopt, &late);
  CHECK_THAT(html, Contains("<h2>Late submissions</h2>"));
  CHECK_THAT(html, Contains("Due 2026-11-20 23:59 (America/New_York"));
  CHECK_THAT(html, Contains("2 late days for the course"));
  CHECK_THAT(html, Contains("<th>days charged</th>"));
  CHECK_THAT(html, Contains("<td>bob, jr.</td><td>2026-11-22T12:00:00-05:00</td><td>file_time</td>"));
  CHECK_THAT(html, Contains("no submission time for 2 students (ada, dave)"));  // a warning, in the report too
  CHECK_THAT(html, Contains("1 on time, 0 within the grace period, 3 late or undecided."));
  CHECK_THAT(html, !Contains("<td>&lt;carol&gt;</td>"));  // on time: not in the table
  // Without a course, no such section.
  CHECK_THAT(gpulab::report::html_report(c, "now"), !Contains("Late submissions"));
}
