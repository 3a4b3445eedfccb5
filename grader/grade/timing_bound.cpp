// Implementation of timing_bound.hpp.
#include "grade/timing_bound.hpp"

#include <fmt/format.h>

#include <cmath>

namespace gpulab::grade {

std::optional<PhaseTiming> phase_timing(const process::ProcessResult& child, long long runs, double claimed_mean_s) {
  std::optional<double> start, end;
  double begun = -1;  // the open call's begin mark, or -1
  PhaseTiming p;
  p.runs = runs;
  p.claimed_mean_s = claimed_mean_s;
  for (const process::OutputMarker& m : child.markers) {
    if (m.name == "start" && !start) start = m.seconds;
    if (m.name == "end") end = m.seconds;
    if (m.name == "call_begin") {
      begun = m.seconds;
    } else if (m.name == "call_end" && begun >= 0) {
      p.in_calls_s += m.seconds - begun;
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
  // the trusted run measures in the same grading (docs/performance.md, "The grader's own clock":
  // per call, the submissions' and the trusted runs' overheads agree to microseconds). The
  // emulator's CPU time is shared with the grader and other tests, so its margins are wide (they
  // still catch a time off by 2x).
  return emulator ? BoundMargins{1.0, 5e-3} : BoundMargins{0.2, 0};
}

BoundVerdict check_timing_bound(const PhaseTiming& s, const PhaseTiming& t, bool emulator) {
  BoundVerdict v;
  if (s.runs <= 0 || t.runs <= 0 || t.call_windows <= 0) return v;
  const auto us = [](double seconds) {
    return std::fabs(seconds) >= 1e-3 ? fmt::format("{:.2f} ms", seconds * 1e3)
                                      : fmt::format("{:.1f} us", seconds * 1e6);
  };
  const double t_window = t.in_calls_s / static_cast<double>(t.call_windows);
  v.overhead_s = t_window - t.claimed_mean_s;
  v.harness_s = std::max(0.0, t.wall_s / static_cast<double>(t.runs) - t_window);
  if (s.call_windows != s.runs) {
    v.consistent = false;
    v.reason = fmt::format(
        "the grader's own clock saw {} timed calls begin and end where the program reports {}: the calls it reports "
        "are not the calls that ran",
        s.call_windows, s.runs);
    return v;
  }
  const double s_window = s.in_calls_s / static_cast<double>(s.call_windows);
  v.unexplained_s = s_window - v.overhead_s - s.claimed_mean_s;
  const BoundMargins m = bound_margins(emulator);
  v.margin_s = m.relative * s.claimed_mean_s + m.absolute;
  if (std::fabs(v.unexplained_s) <= v.margin_s) return v;
  v.consistent = false;
  if (v.unexplained_s > 0) {
    v.reason = fmt::format(
        "the grader's own clock saw each of the {} timed calls take {}, of which the timing itself adds about {} "
        "(measured with a trusted program in the same grading); the program reports {} per call, {} less than its "
        "calls took (more than the {} that noise explains): the reported time cannot be the calls' time",
        s.runs, us(s_window), us(v.overhead_s), us(s.claimed_mean_s), us(v.unexplained_s), us(v.margin_s));
  } else {
    v.reason = fmt::format(
        "the grader's own clock saw each of the {} timed calls take {}, with about {} of it the timing's own "
        "(measured with a trusted program in the same grading), less than the {} per call the program reports: "
        "the calls cannot have taken the time it reports",
        s.runs, us(s_window), us(v.overhead_s), us(s.claimed_mean_s));
  }
  return v;
}

}  // namespace gpulab::grade
