// `gpulab grade --timings` on a speed part (grade/speed_run_timing): each timed run's child split
// into its phases from the harness's markers, the parent's compare added, and the runs shown
// under their part's step without being counted twice in the sum.
#include <catch2/catch.hpp>

#include "grade/grading_timings.hpp"
#include "grade/speed_run_timing.hpp"

using gpulab::grade::GradingTimings;
using gpulab::grade::speed_run_step;
using gpulab::grade::StepTiming;
using gpulab::process::OutputMarker;
using gpulab::process::ProcessResult;

TEST_CASE("a timed run's child is split into its phases, with the parent's compare", "[timings]") {
  ProcessResult child;
  child.seconds = 1.20;
  child.markers = {{"main", 0.05}, {"call", 0.40}, {"returned", 0.41}, {"start", 0.60}, {"end", 1.00}};
  const StepTiming s = speed_run_step("part 1d speed: trusted timed run", child, 0.30);
  CHECK(s.step == "part 1d speed: trusted timed run");
  CHECK(s.seconds == Approx(1.50));
  CHECK(s.detail);
  CHECK(s.note ==
        "start 0.05, setup 0.35, checked call 0.01, its checks and outputs, the timed inputs 0.19, timed calls 0.40, "
        "rest 0.20, compare 0.30");
}

TEST_CASE("a child that ended before its markers gives only what it has", "[timings]") {
  ProcessResult crashed;
  crashed.seconds = 0.25;
  crashed.markers = {{"main", 0.02}};
  const StepTiming s = speed_run_step("part int speed: submission's timed run", crashed, 0);
  CHECK(s.note == "start 0.02, compare 0.00");
  CHECK(s.seconds == Approx(0.25));
}

TEST_CASE("the runs are shown under their part's step and not added to the sum twice", "[timings]") {
  GradingTimings t;
  t.steps.push_back({"part 1d: speed (reference and submission timed)", 5.0, ""});
  t.steps.push_back({"part 1d speed: trusted timed run", 2.0, "start 0.01", true});
  t.steps.push_back({"part 1d speed: submission's timed run", 2.5, "start 0.01", true});
  t.total_s = 5.5;
  const std::string text = gpulab::grade::timings_text(t);
  CHECK_THAT(text, Catch::Contains("\n    part 1d speed: trusted timed run"));
  CHECK_THAT(text, Catch::Contains("steps above                                           5.000"));
  CHECK_THAT(text, Catch::Contains("other (scoring, folders, ...)                         0.500"));
}
