// The grader's own bound on a timed run (docs/security.md, "The speed
// score"): the harness that times a submission runs in the submission's
// process, so the time it reports could be forged there. The parent therefore
// also times the timed calls on its own clock: the harness marks the start
// and the end of its timed calls on its output, and the parent timestamps the
// marks as they arrive (process/run.hpp), so a program can widen that window
// but not shrink it. The same timed case is run by a trusted program (the
// reference, or the lab's checker) in the same grading, which gives what the
// harness itself spends per call outside the measurement (the new inputs, the
// L2 flush, the check of each output). A submission's calls must then account
// for its wall time: per call, wall / runs - the harness's own work must be
// about the mean time it reports. A report that the parent's clock cannot
// account for, in either direction, beyond the margin (measured, see
// docs/performance.md), earns no speed points and is marked for review.
#pragma once
#include <optional>
#include <string>

#include "process/run.hpp"

namespace gpulab::grade {

// One timed run as the parent saw it and the harness reported it.
struct PhaseTiming {
  double wall_s = 0;          // the first start mark to the last end mark, on the parent's clock
  long long runs = 0;         // timed calls the harness reports
  double claimed_mean_s = 0;  // the mean of the times it reports for them
};

// The wall time between the harness's marks of its timed calls; nullopt when the start or the
// end mark is missing or out of order.
std::optional<double> phase_wall(const process::ProcessResult& child);

struct BoundVerdict {
  bool consistent = true;
  std::string reason;        // when not: what the parent's clock says, for the instructor and the student
  double harness_s = 0;      // the harness's own work per call, from the trusted run
  double unexplained_s = 0;  // per call: the submission's wall time not accounted for by its report and the harness
  double margin_s = 0;       // how much of that is noise
};

// Margins (per call): `relative` x the submission's reported mean + `of_harness` x the harness's
// own work + `absolute`. Wider on the emulator, whose CPU time is shared with the grader.
struct BoundMargins {
  double relative, of_harness, absolute;
};
BoundMargins bound_margins(bool emulator);

// Whether the submission's reported time is what its wall time allows, next to the trusted run's.
BoundVerdict check_timing_bound(const PhaseTiming& submission, const PhaseTiming& trusted, bool emulator);

}  // namespace gpulab::grade
