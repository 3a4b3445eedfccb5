// Implementation of timing_bound.hpp.
#include "grade/timing_bound.hpp"

#include "data/quantile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace gpulab::grade {

namespace {

// Per call: its window on the parent's clock minus the time reported for it.
std::vector<double> excess(const PhaseTiming& p) {
  std::vector<double> e;
  const size_t n = std::min(p.windows_s.size(), p.claimed_s.size());
  for (size_t i = 0; i < n; ++i) e.push_back(p.windows_s[i] - p.claimed_s[i]);
  return e;
}

}  // namespace

std::optional<PhaseTiming> phase_timing(const process::ProcessResult& child, long long runs,
                                        const std::vector<double>& claimed_s) {
  std::optional<double> start, end;
  double begun = -1;  // the open call's begin mark, or -1
  PhaseTiming p;
  p.runs = runs;
  p.claimed_s = claimed_s;
  for (const process::OutputMarker& m : child.markers) {
    if (m.name == "start" && !start) start = m.seconds;
    if (m.name == "end") end = m.seconds;
    if (m.name == "call_begin") {
      begun = m.seconds;
    } else if (m.name == "call_end" && begun >= 0) {
      p.in_calls_s += m.seconds - begun;
      p.windows_s.push_back(m.seconds - begun);
      ++p.call_windows;
      begun = -1;
    }
  }
  if (!start || !end || *end < *start) return std::nullopt;
  p.wall_s = *end - *start;
  return p;
}

BoundMargins bound_margins(bool emulator) {
  // GPU: each call's window is the call's own time plus what the marks and the events add, which
  // the trusted run measures in the same grading; the medians, twice the trusted run's own spread
  // and 10 us absorb the calls that the scheduler delayed and the wake-ups' jitter (measured on an
  // H200 on one CPU: the references' unexplained time -12 to 0 us, the spread about 2.5 to 10 us;
  // docs/performance.md, "The grader's own clock on one CPU"). The emulator's CPU time is shared
  // with the grader and other tests, so its margins are wide (they still catch a time off by 2x).
  return emulator ? BoundMargins{1.0, 5e-3, 2.0} : BoundMargins{0.2, 10e-6, 2.0};
}

BoundVerdict check_timing_bound(const PhaseTiming& s, const PhaseTiming& t, bool emulator) {
  BoundVerdict v;
  if (s.runs <= 0 || t.runs <= 0 || t.call_windows <= 0) return v;
  const auto us = [](double seconds) {
    return std::fabs(seconds) >= 1e-3 ? fmt::format("{:.2f} ms", seconds * 1e3)
                                      : fmt::format("{:.1f} us", seconds * 1e6);
  };
  const double t_window = t.in_calls_s / static_cast<double>(t.call_windows);
  v.harness_s = std::max(0.0, t.wall_s / static_cast<double>(t.runs) - t_window);
  if (s.call_windows != s.runs) {
    v.consistent = false;
    v.reason = fmt::format(
        "the grader's own clock saw {} timed calls begin and end where the program reports {}: the calls it reports "
        "are not the calls that ran",
        s.call_windows, s.runs);
    return v;
  }
  const double s_window = quantile(s.windows_s, 0.5);
  const double s_claimed = quantile(s.claimed_s, 0.5);
  const std::vector<double> t_excess = excess(t);
  v.overhead_s = quantile(t_excess, 0.5);
  v.noise_s = quantile(t_excess, 0.75) - quantile(t_excess, 0.25);
  const double s_excess = quantile(excess(s), 0.5);
  v.unexplained_s = s_excess - v.overhead_s;
  const BoundMargins m = bound_margins(emulator);
  v.margin_s = m.relative * s_claimed + m.absolute + m.noise * v.noise_s;
  // Time hidden from the report (the calls took longer than reported, beyond the timing's own
  // overhead) would buy speed points: refused beyond the margin. Time added to the report buys
  // nothing (the score only falls), and two runs' overheads differ by more than the trusted run's
  // spread (the histogram reference against itself on an H200: 63 us less than the trusted run's
  // overhead, with 54 us of margin): refused only where it is impossible, a reported time longer
  // than the call's whole window on the grader's clock.
  if (v.unexplained_s <= v.margin_s && s_excess >= -v.margin_s) return v;
  v.consistent = false;
  if (v.unexplained_s > v.margin_s) {
    v.reason = fmt::format(
        "the grader's own clock saw the {} timed calls take {} each (the median), of which the timing itself adds "
        "about {} (measured with a trusted program in the same grading); the program reports {} per call, {} less "
        "than its calls took (more than the {} that noise explains): the reported time cannot be the calls' time",
        s.runs, us(s_window), us(v.overhead_s), us(s_claimed), us(v.unexplained_s), us(v.margin_s));
  } else {
    v.reason = fmt::format(
        "the grader's own clock saw the {} timed calls take {} each (the median), {} less than the {} per call the "
        "program reports (more than the {} that noise explains): the calls cannot have taken the time it reports",
        s.runs, us(s_window), us(-s_excess), us(s_claimed), us(v.margin_s));
  }
  return v;
}

}  // namespace gpulab::grade
