// Tests of the grader's own clock (grader/grade/timing_bound): timed runs made up as the parent
// sees them (the harness's marks, timestamped on arrival) and as the harness reports them. An
// honest run is believed even when the scheduler delays some of the trusted run's marks by
// milliseconds (as on a GPU machine's one CPU, where a reference once lost its speed points); a
// time hidden from the report, or a report longer than the calls' windows, is caught (a report
// longer than the trusted overhead explains, within the windows, only lowers the score: believed); the trusted
// run's own spread widens the margin (twice its interquartile range); a count of calls other than the reported one is caught.
#include <catch2/catch.hpp>

#include <vector>

#include "grade/timing_bound.hpp"

using gpulab::grade::BoundVerdict;
using gpulab::grade::check_timing_bound;
using gpulab::grade::phase_timing;
using gpulab::grade::PhaseTiming;
using gpulab::process::OutputMarker;
using gpulab::process::ProcessResult;

namespace {

constexpr double kUs = 1e-6;

// A timed run: calls of `claimed` seconds each as reported, whose windows on the parent's clock
// are each call's claimed time plus `overhead` plus `delays[i]` (when given), one after another.
PhaseTiming run_of(int calls, double claimed, double overhead, const std::vector<double>& delays = {}) {
  ProcessResult child;
  double now = 0.010;
  child.markers.push_back(OutputMarker{"start", now});
  std::vector<double> reported;
  for (int i = 0; i < calls; ++i) {
    now += 20 * kUs;  // the harness's work between calls
    child.markers.push_back(OutputMarker{"call_begin", now});
    now += claimed + overhead + (i < static_cast<int>(delays.size()) ? delays[i] : 0.0);
    child.markers.push_back(OutputMarker{"call_end", now});
    reported.push_back(claimed);
  }
  child.markers.push_back(OutputMarker{"end", now + 5 * kUs});
  const auto p = phase_timing(child, calls, reported);
  REQUIRE(p);
  return *p;
}

// Every `every`-th of `calls` calls delayed by `delay` seconds.
std::vector<double> delayed(int calls, int every, double delay) {
  std::vector<double> d(static_cast<size_t>(calls), 0.0);
  for (int i = 0; i < calls; i += every) d[static_cast<size_t>(i)] = delay;
  return d;
}

}  // namespace

TEST_CASE("the parent's view of a timed run: each call's window, the wall time, the reported times") {
  const PhaseTiming p = run_of(4, 80 * kUs, 48 * kUs);
  CHECK(p.runs == 4);
  CHECK(p.call_windows == 4);
  REQUIRE(p.windows_s.size() == 4);
  CHECK(p.windows_s[2] == Approx(128 * kUs));
  REQUIRE(p.claimed_s.size() == 4);
  CHECK(p.claimed_s[3] == Approx(80 * kUs));
  CHECK(p.wall_s == Approx(4 * (20 + 128) * kUs + 5 * kUs));
}

TEST_CASE("marks missing or out of order give no timing") {
  ProcessResult child;
  child.markers.push_back(OutputMarker{"call_begin", 0.1});
  child.markers.push_back(OutputMarker{"call_end", 0.2});
  CHECK_FALSE(phase_timing(child, 1, {0.1}));
  child.markers.insert(child.markers.begin(), OutputMarker{"start", 0.5});
  child.markers.push_back(OutputMarker{"end", 0.3});
  CHECK_FALSE(phase_timing(child, 1, {0.1}));
}

TEST_CASE("an honest run is believed when the scheduler delayed some of the trusted run's calls") {
  // The trusted run's mean overhead is 48 us + 10 x 2.5 ms / 100 = 298 us; its median is 48 us.
  const PhaseTiming trusted = run_of(100, 81 * kUs, 48 * kUs, delayed(100, 10, 2.5e-3));
  const PhaseTiming honest = run_of(100, 80 * kUs, 48 * kUs);
  const BoundVerdict v = check_timing_bound(honest, trusted, false);
  CHECK(v.consistent);
  CHECK(v.reason.empty());
  CHECK(v.overhead_s == Approx(48 * kUs));
  CHECK(std::abs(v.unexplained_s) < 1 * kUs);
  // And the other way round: the submission's own delayed calls do not count against it.
  const PhaseTiming honest_delayed = run_of(100, 80 * kUs, 48 * kUs, delayed(100, 7, 1e-3));
  CHECK(check_timing_bound(honest_delayed, run_of(100, 81 * kUs, 48 * kUs), false).consistent);
}

TEST_CASE("a time hidden from the report is caught, with what the clock saw") {
  const PhaseTiming trusted = run_of(100, 81 * kUs, 48 * kUs);
  // The calls take 160 us of work, the program reports 80 us.
  const PhaseTiming lying = run_of(100, 80 * kUs, (48 + 80) * kUs);
  const BoundVerdict v = check_timing_bound(lying, trusted, false);
  CHECK_FALSE(v.consistent);
  CHECK(v.unexplained_s == Approx(80 * kUs));
  CHECK(v.margin_s == Approx(16 * kUs + 10 * kUs));
  CHECK_THAT(v.reason, Catch::Contains("208.0 us each (the median)") && Catch::Contains("80.0 us less"));
}

TEST_CASE("a report longer than the calls took is caught") {
  const PhaseTiming trusted = run_of(100, 81 * kUs, 48 * kUs);
  const PhaseTiming slow_claim = run_of(100, 400 * kUs, 48 * kUs - 200 * kUs);  // windows of 248 us
  const BoundVerdict v = check_timing_bound(slow_claim, trusted, false);
  CHECK_FALSE(v.consistent);
  CHECK_THAT(v.reason, Catch::Contains("248.0 us each (the median), 152.0 us less than the 400.0 us per call the "
                                       "program reports"));
}

TEST_CASE("a report longer than the trusted overhead explains, but within the calls' windows, is believed") {
  // The histogram reference graded against itself on an H200: the trusted run's calls carried
  // 110 us of overhead each, the second run's 47 us, for a reported 108 us: 63 us "unexplained"
  // the other way, beyond the 54 us margin. Time added to a report only lowers the score.
  const PhaseTiming trusted = run_of(100, 108 * kUs, 110 * kUs);
  const PhaseTiming second = run_of(100, 108 * kUs, 47 * kUs);
  const BoundVerdict v = check_timing_bound(second, trusted, false);
  CHECK(v.unexplained_s == Approx(-63 * kUs));
  CHECK(v.margin_s < 63 * kUs);
  CHECK(v.consistent);
  // Hidden time of the same size is not believed.
  CHECK_FALSE(check_timing_bound(run_of(100, 108 * kUs, (110 + 63) * kUs), trusted, false).consistent);
}

TEST_CASE("the trusted run's own spread widens the margin by twice its interquartile range") {
  // Half the trusted calls 30 us slower: the interquartile range of the overhead is 30 us.
  std::vector<double> half(100, 0.0);
  for (size_t i = 0; i < half.size(); i += 2) half[i] = 30 * kUs;
  const PhaseTiming trusted = run_of(100, 81 * kUs, 48 * kUs, half);
  const BoundVerdict v = check_timing_bound(run_of(100, 80 * kUs, 48 * kUs), trusted, false);
  CHECK(v.noise_s == Approx(30 * kUs));
  CHECK(v.margin_s == Approx(16 * kUs + 10 * kUs + 2 * 30 * kUs));
  CHECK(v.consistent);
  // The trusted median overhead is 63 us (half the calls at 48, half at 78): 80 us hidden is more
  // than the 86 us of margin only once the spread is gone; with it, 100 us hidden is caught.
  CHECK(check_timing_bound(run_of(100, 80 * kUs, (63 + 80) * kUs), trusted, false).consistent);
  CHECK_FALSE(check_timing_bound(run_of(100, 80 * kUs, (63 + 100) * kUs), trusted, false).consistent);
  CHECK_FALSE(
      check_timing_bound(run_of(100, 80 * kUs, (48 + 80) * kUs), run_of(100, 81 * kUs, 48 * kUs), false).consistent);
}

TEST_CASE("calls other than the ones reported are caught") {
  const PhaseTiming trusted = run_of(100, 81 * kUs, 48 * kUs);
  PhaseTiming fewer_marks = run_of(100, 80 * kUs, 48 * kUs);
  fewer_marks.runs = 200;  // the program reports twice the calls whose marks arrived
  const BoundVerdict v = check_timing_bound(fewer_marks, trusted, false);
  CHECK_FALSE(v.consistent);
  CHECK_THAT(v.reason, Catch::Contains("saw 100 timed calls begin and end where the program reports 200"));
}

TEST_CASE("the emulator's margins are wide: a time off by half is believed there, not on a GPU") {
  const PhaseTiming trusted = run_of(20, 1e-3, 0.2e-3);
  const PhaseTiming off_by_half = run_of(20, 1e-3, 0.7e-3);
  CHECK(check_timing_bound(off_by_half, trusted, true).consistent);
  CHECK_FALSE(check_timing_bound(off_by_half, trusted, false).consistent);
}
