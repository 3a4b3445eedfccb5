// One speed run's child (a timed run of the reference or the submission, or the device probe) as a
// step of `gpulab grade --timings`: where its seconds went, from the harness's markers as the
// parent timestamped them. Measurement only, never part of a score.
#pragma once
#include <string>

#include "grade/grading_timings.hpp"
#include "process/run.hpp"

namespace gpulab::grade {

// `what`: the step's name ("part 1d speed: the reference's timed run"); `compare_s`: the parent's
// time reading and comparing the run's outputs. The note splits the child into its start (spawn to
// the harness's main), setup (to the checked call), the checked call, its checks and outputs with
// the timed calls' inputs (read and placed), the timed calls and the rest (outputs written, the
// recheck, exit), for the phases whose markers arrived.
StepTiming speed_run_step(const std::string& what, const process::ProcessResult& child, double compare_s);

}  // namespace gpulab::grade
