// The arithmetic of lateness: on time, within grace, one day, the cap, after
// the late due date, a late-day budget charged and exhausted (also for a
// group), days counted across a daylight-saving change, and where the
// submission time comes from.
#include <catch2/catch.hpp>

#include "late/class_lateness.hpp"

using namespace gpulab::late;
using Catch::Contains;

namespace {
// Due 2026-11-20 23:59 in New York (EST, UTC-5), 15 minutes of grace, 10% a day up to 30%.
Course penalty_course(bool with_late_due) {
  return parse_course_file(std::string(R"({"time_zone": "America/New_York", "grace_minutes": 15,
      "labs": {"scan": {"due": "2026-11-20 23:59")") +
                               (with_late_due ? R"(, "late_due": "2026-11-23 23:59")" : "") + R"(}},
      "penalty": {"percent_per_day": 10, "max_percent": 30}})",
                           "penalty.json");
}

Course late_day_course() {
  return parse_course_file(R"({"time_zone": "America/New_York", "labs": {"scan": {"due": "2026-11-20 23:59"}},
      "late_days": {"budget": 3, "students": {"ada@example.edu": {"used_before": 2}, "bob": {"budget": 5},
                                              "nobody@example.edu": {"used_before": 1}}}})",
                           "days.json");
}

// A wall-clock time in New York as an instant.
Instant ny(const std::string& local) { return to_instant(find_time_zone("America/New_York"), parse_local_time(local)); }

Lateness judge(const Course& c, const std::string& local, std::optional<double> score = 80.0, int days_left = 0) {
  return assess_lateness(c, c.deadlines("scan"), ny(local), score, days_left);
}
}  // namespace

TEST_CASE("lateness: on time, within grace, one day, two days", "[batch][late]") {
  const Course c = penalty_course(true);
  Lateness l = judge(c, "2026-11-20 22:00");
  CHECK(l.status == "on_time");
  CHECK(l.hours_late == 0);
  CHECK(l.days_late == 0);
  CHECK(*l.penalty == 0);
  CHECK(*l.final_score == 80);
  CHECK(judge(c, "2026-11-20 23:59").status == "on_time");  // at the due time exactly

  l = judge(c, "2026-11-21 00:10");  // 11 minutes late, within 15 of grace
  CHECK(l.status == "grace");
  CHECK(l.hours_late == Approx(11.0 / 60));
  CHECK(l.days_late == 0);
  CHECK(*l.final_score == 80);

  l = judge(c, "2026-11-21 00:20");  // 21 minutes late: past the grace, day 1 started
  CHECK(l.status == "late");
  CHECK(l.days_late == 1);
  CHECK(l.penalty_percent == 10);
  CHECK(*l.penalty == Approx(8));
  CHECK(*l.final_score == Approx(72));
  CHECK(l.late_days_charged == 0);  // a penalty course charges no days

  CHECK(judge(c, "2026-11-22 00:10").days_late == 1);  // one day and 11 minutes: the grace counts for every day
  l = judge(c, "2026-11-22 00:20");
  CHECK(l.days_late == 2);
  CHECK(*l.final_score == Approx(64));
}

TEST_CASE("lateness: the penalty's cap, and after the late due date", "[batch][late]") {
  Lateness l = judge(penalty_course(false), "2026-11-25 12:00");  // 5 days: 50%, capped at 30%
  CHECK(l.status == "late");
  CHECK(l.days_late == 5);
  CHECK(l.penalty_percent == 30);
  CHECK(*l.final_score == Approx(56));

  const Course c = penalty_course(true);
  CHECK(judge(c, "2026-11-24 00:10").status == "late");  // after the late due date, within grace
  l = judge(c, "2026-11-24 00:30");
  CHECK(l.status == "not_accepted");
  CHECK(l.days_late == 4);
  CHECK(*l.penalty == 80);
  CHECK(*l.final_score == 0);

  // No on-time score (a grader error, not graded yet): lateness is known, penalty and final are not.
  l = judge(c, "2026-11-21 12:00", std::nullopt);
  CHECK(l.status == "late");
  CHECK(l.days_late == 1);
  CHECK_FALSE(l.penalty);
  CHECK_FALSE(l.final_score);

  // No time at all: nothing is decided.
  l = assess_lateness(c, c.deadlines("scan"), std::nullopt, 80.0, 0);
  CHECK(l.status == "unknown_time");
  CHECK_FALSE(l.final_score);
}

TEST_CASE("lateness: days late across daylight-saving changes follow the zone's calendar", "[batch][late]") {
  // New York: clocks go back an hour on 2026-11-01 and forward an hour on 2026-03-08.
  const Course fall = parse_course_file(R"({"time_zone": "America/New_York",
      "labs": {"scan": {"due": "2026-10-31 12:00"}}, "penalty": {"percent_per_day": 10}})",
                                        "c.json");
  Lateness l = judge(fall, "2026-11-01 11:30");  // 24.5 hours later, but before noon the next day
  CHECK(l.hours_late == Approx(24.5));
  CHECK(l.days_late == 1);
  l = judge(fall, "2026-11-01 12:00");  // 25 hours: still day 1
  CHECK(l.hours_late == Approx(25));
  CHECK(l.days_late == 1);
  CHECK(judge(fall, "2026-11-01 12:01").days_late == 2);

  const Course spring = parse_course_file(R"({"time_zone": "America/New_York",
      "labs": {"scan": {"due": "2026-03-07 12:00"}}, "penalty": {"percent_per_day": 10}})",
                                          "c.json");
  l = judge(spring, "2026-03-08 12:30");  // only 23.5 hours later, but past noon the next day
  CHECK(l.hours_late == Approx(23.5));
  CHECK(l.days_late == 2);
  CHECK(judge(spring, "2026-03-08 11:59").days_late == 1);

  // A due time the jump skips on a later day: that day's deadline is the moment of the jump.
  const Course skipped = parse_course_file(R"({"time_zone": "America/New_York",
      "labs": {"scan": {"due": "2026-03-07 02:30"}}, "penalty": {"percent_per_day": 10}})",
                                           "c.json");
  CHECK(judge(skipped, "2026-03-08 01:59").days_late == 1);
  CHECK(judge(skipped, "2026-03-08 03:00").days_late == 1);  // 03:00 EDT is the jump itself
  CHECK(judge(skipped, "2026-03-08 03:01").days_late == 2);
}

TEST_CASE("lateness: a late-day budget is charged, and exhausted means score 0", "[batch][late]") {
  const Course c = late_day_course();
  Lateness l = judge(c, "2026-11-22 10:00", 80.0, 3);
  CHECK(l.status == "late");
  CHECK(l.days_late == 2);
  CHECK(l.late_days_charged == 2);
  CHECK(l.late_days_left == 1);
  CHECK(*l.penalty == 0);
  CHECK(*l.final_score == 80);

  l = judge(c, "2026-11-22 10:00", 80.0, 1);
  CHECK(l.status == "late_days_exhausted");
  CHECK(l.late_days_charged == 0);  // nothing charged: the day is kept for a later lab
  CHECK(l.late_days_left == 1);
  CHECK(*l.final_score == 0);
  CHECK(judge(c, "2026-11-20 23:00", 80.0, 0).status == "on_time");  // no days left is fine on time
}

namespace {
gpulab::batch::StudentEntry student(const std::string& label, const std::vector<gpulab::batch::Submitter>& people,
                                    const std::string& created_at, const std::string& file_time) {
  gpulab::batch::StudentEntry e;
  e.record.student = label;
  e.record.status = gpulab::batch::GradingStatus::graded;
  e.record.score = 80;
  e.record.submitters = people;
  e.record.created_at = created_at;
  e.record.newest_file_time = file_time;
  return e;
}
}  // namespace

TEST_CASE("lateness of a class: per-student budgets, groups, sources and warnings", "[batch][late]") {
  gpulab::batch::ClassResults c;
  c.lab = "scan";
  // Due 2026-11-21T04:59:00Z. Two days late is 2026-11-22 10:00 EST = 15:00Z.
  c.students.push_back(
      student("ada@example.edu", {{"Ada", "ada@example.edu", "1"}}, "2026-11-22 07:00:00.5 -08:00", ""));
  c.students.push_back(student("bob", {}, "", "2026-11-25T15:00:00Z"));  // 5 days late, file time
  c.students.push_back(student("carol@x.edu+dan@x.edu", {{"Carol", "carol@x.edu", "3"}, {"Dan", "dan@x.edu", "4"}},
                               "2026-11-22 10:00:00 -0500", ""));
  c.students.push_back(student("erin", {}, "", ""));  // nothing tells the time
  const ClassLateness l = assess_class(late_day_course(), c);

  const LateRow& ada = *l.row("ada@example.edu");  // budget 3, used 2: one day left, two days late
  CHECK(ada.time.source == "gradescope_metadata");
  CHECK(ada.submitted_at == "2026-11-22T10:00:00-05:00");
  CHECK(ada.budget_from == "ada@example.edu");
  CHECK(ada.lateness.status == "late_days_exhausted");
  CHECK(*ada.lateness.final_score == 0);

  const LateRow& bob = *l.row("bob");  // own budget of 5 (matched by label): 5 days late is fine
  CHECK(bob.time.source == "file_time");
  CHECK(bob.lateness.days_late == 5);
  CHECK(bob.lateness.late_days_charged == 5);
  CHECK(bob.lateness.late_days_left == 0);
  CHECK(*bob.lateness.final_score == 80);

  const LateRow& group = *l.row("carol@x.edu+dan@x.edu");  // neither listed: the course's 3 days
  CHECK(group.lateness.late_days_charged == 2);
  CHECK(group.budget_from.empty());

  const LateRow& erin = *l.row("erin");
  CHECK(erin.time.source == "none");
  CHECK(erin.lateness.status == "unknown_time");
  CHECK_FALSE(erin.lateness.final_score);

  REQUIRE(l.warnings.size() == 3);
  CHECK_THAT(l.warnings[0], Contains("1 student (bob) is the newest file time"));
  CHECK_THAT(l.warnings[1], Contains("no submission time for 1 student (erin)"));
  CHECK_THAT(l.warnings[2], Contains("days.json: late_days.students: nobody@example.edu match no student"));
  CHECK_THAT(policy_summary(l.course, l.deadline),
             Contains("Due 2026-11-20 23:59 (America/New_York, 2026-11-20T23:59:00-05:00)") && Contains("3 late days"));

  // A group whose member has fewer days decides for the group.
  c.students[2].record.submitters[1].email = "ada@example.edu";
  CHECK(assess_class(late_day_course(), c).row("carol@x.edu+dan@x.edu")->lateness.status == "late_days_exhausted");
  // One person listed twice (email and sid) is an error naming both entries.
  const Course twice = parse_course_file(R"({"time_zone": "UTC", "labs": {"scan": {"due": "2026-11-20 23:59"}},
      "late_days": {"budget": 3, "students": {"ada@example.edu": {"used_before": 1}, "1": {"used_before": 2}}}})",
                                         "twice.json");
  CHECK_THROWS_WITH(assess_class(twice, c),
                    Contains("twice.json: late_days.students: 'ada@example.edu' and '1' are the same student"));
}

TEST_CASE("submission time: Gradescope's created_at, else the file time, said which", "[batch][late]") {
  CHECK(format_utc(*parse_gradescope_time("2026-11-20 10:11:12.000000000 -08:00")) == "2026-11-20T18:11:12Z");
  CHECK(format_utc(*parse_gradescope_time("2026-11-20 10:11:12 +0100")) == "2026-11-20T09:11:12Z");
  CHECK_FALSE(parse_gradescope_time("yesterday"));
  CHECK_FALSE(parse_gradescope_time("2026-11-20 10:11:12"));  // no offset: ambiguous, not guessed

  SubmissionTime t = submission_time("2026-11-20 10:11:12.5 -08:00", "2026-11-30T00:00:00Z");
  CHECK(t.source == "gradescope_metadata");
  CHECK(format_utc(*t.at) == "2026-11-20T18:11:12Z");
  t = submission_time("", "2026-11-30T00:00:00Z");
  CHECK(t.source == "file_time");
  CHECK(format_utc(*t.at) == "2026-11-30T00:00:00Z");
  t = submission_time("soon", "2026-11-30T00:00:00Z");
  CHECK(t.source == "file_time");
  CHECK_THAT(t.note, Contains("created_at 'soon' is not a time"));
  t = submission_time("", "");
  CHECK(t.source == "none");
  CHECK_FALSE(t.at);
}
