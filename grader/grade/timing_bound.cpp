// Implementation of timing_bound.hpp.
#include "grade/timing_bound.hpp"

#include <fmt/format.h>

#include <cmath>

namespace gpulab::grade {

std::optional<double> phase_wall(const process::ProcessResult& child) {
  std::optional<double> start, end;
  for (const process::OutputMarker& m : child.markers) {
    if (m.name == "start" && !start) start = m.seconds;
    if (m.name == "end") end = m.seconds;
  }
  if (!start || !end || *end < *start) return std::nullopt;
  return *end - *start;
}

BoundMargins bound_margins(bool emulator) {
  // GPU: the harness's work per call varies by a few percent between runs of one grading; the
  // events and the parent's clock agree to microseconds. The emulator's CPU time is shared with
  // the grader and other tests, so its margins are wide (they still catch a time off by 2x).
  return emulator ? BoundMargins{1.0, 1.0, 5e-3} : BoundMargins{0.5, 0.25, 100e-6};
}

BoundVerdict check_timing_bound(const PhaseTiming& s, const PhaseTiming& t, bool emulator) {
  BoundVerdict v;
  if (s.runs <= 0 || t.runs <= 0) return v;
  const double s_per_call = s.wall_s / static_cast<double>(s.runs);
  const double t_per_call = t.wall_s / static_cast<double>(t.runs);
  v.harness_s = std::max(0.0, t_per_call - t.claimed_mean_s);
  v.unexplained_s = s_per_call - v.harness_s - s.claimed_mean_s;
  const BoundMargins m = bound_margins(emulator);
  v.margin_s = m.relative * s.claimed_mean_s + m.of_harness * v.harness_s + m.absolute;
  if (std::fabs(v.unexplained_s) <= v.margin_s) return v;
  v.consistent = false;
  const auto us = [](double seconds) {
    return std::fabs(seconds) >= 1e-3 ? fmt::format("{:.2f} ms", seconds * 1e3)
                                      : fmt::format("{:.1f} us", seconds * 1e6);
  };
  if (v.unexplained_s > 0) {
    v.reason = fmt::format(
        "the grader's own clock saw the {} timed calls take {} each, of which the harness's own work between "
        "calls is about {} (measured with a trusted program in the same grading); the program reports {} per "
        "call, {} less than its calls took (more than the {} that noise explains): the reported time cannot be "
        "the calls' time",
        s.runs, us(s_per_call), us(v.harness_s), us(s.claimed_mean_s), us(v.unexplained_s), us(v.margin_s));
  } else {
    v.reason = fmt::format(
        "the grader's own clock saw the {} timed calls take {} each, less than the harness's own work between "
        "calls (about {}, measured with a trusted program in the same grading) and the {} per call the program "
        "reports: the calls it reports did not all happen",
        s.runs, us(s_per_call), us(v.harness_s), us(s.claimed_mean_s));
  }
  return v;
}

}  // namespace gpulab::grade
