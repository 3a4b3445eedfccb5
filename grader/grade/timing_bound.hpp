// The grader's own bound on a timed run (docs/security.md, "The speed
// score"): the harness that times a submission runs in the submission's
// process, so the time it reports could be forged there. The parent therefore
// also times each timed call on its own clock: the harness marks the start and
// the end of every timed call on its output (just before the call's start
// event, just after its stop event completed), and the parent timestamps the
// marks as they arrive (process/run.hpp). The same timed case is run by a
// trusted program (the reference, or the lab's checker) in the same grading,
// which gives what the marks and events themselves add to each call's window.
// A submission's calls must then account for their windows: per call, the
// window minus that overhead must be about the time it reports. A report that
// the parent's clock cannot account for, in either direction, beyond the
// margin (measured, see docs/performance.md), or a number of marked calls
// other than the number it reports, earns no speed points and is marked for
// review.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "process/run.hpp"

namespace gpulab::grade {

// One timed run as the parent saw it and the harness reported it.
struct PhaseTiming {
  double wall_s = 0;              // the first start mark to the last end mark, on the parent's clock
  long long runs = 0;             // timed calls the harness reports
  long long call_windows = 0;     // timed calls whose begin and end marks arrived, in order
  double in_calls_s = 0;          // the sum of those calls' windows, on the parent's clock
  std::vector<double> windows_s;  // each of those windows, in call order
  std::vector<double> claimed_s;  // the time the harness reports for each call, in call order
};

// The timed run's marks on the parent's clock, with what the harness reported for each call (in
// call order); nullopt when the start or the end mark is missing or out of order.
std::optional<PhaseTiming> phase_timing(const process::ProcessResult& child, long long runs,
                                        const std::vector<double>& claimed_s);

struct BoundVerdict {
  bool consistent = true;
  std::string reason;        // when not: what the parent's clock says, for the instructor and the student
  double harness_s = 0;      // the harness's own work between calls, per call, from the trusted run
  double overhead_s = 0;     // what the marks and events add to each call's window, from the trusted run
  double unexplained_s = 0;  // per call: the submission's window not accounted for by its report and the overhead
  double noise_s = 0;        // how much a call's overhead varies in the trusted run (its interquartile range)
  double margin_s = 0;       // how much of the unexplained time is noise (grows with noise_s)
};

// Margins (per call): `relative` x the submission's reported median + `absolute` + `noise` x the
// trusted run's own spread of a call's overhead (its interquartile range). Wider on the emulator,
// whose CPU time is shared with the grader.
struct BoundMargins {
  double relative, absolute, noise;
};
BoundMargins bound_margins(bool emulator);

// Whether the submission's reported time is what its calls' windows allow, next to the trusted run's.
// Per call, a window minus the time reported for that call is the timing's own overhead plus what
// the submission hides; medians over the calls, so that a few calls delayed by the scheduler (the
// parent timestamps marks when it gets the CPU) move neither run's figure.
BoundVerdict check_timing_bound(const PhaseTiming& submission, const PhaseTiming& trusted, bool emulator);

}  // namespace gpulab::grade
