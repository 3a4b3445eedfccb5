// Where one grading's time went (`gpulab grade --timings`): each build and
// whether the cache had it, the audit, each dataset source, each case's child
// (start, run, reading back its report, comparing its outputs), the profile,
// the other steps, and the total. Filled by the grading code as it goes; it
// is measurement only, never part of a score.
#pragma once
#include <string>
#include <vector>

namespace gpulab::grade {

// One step outside the cases: a build, the audit, a dataset source, a speed or sanitizer run.
struct StepTiming {
  std::string step;  // "plain build: object", "datasets: hidden (generated)", ...
  double seconds = 0;
  std::string note;     // "cache hit", "12 cases", ...
  bool detail = false;  // a part of the step before it (shown indented, not added to the sum)
};

// One correctness case. The child's phases come from markers the harness writes on its output,
// timestamped by the parent (process/run.hpp); a phase is negative when its markers are missing
// (a program that crashed before them).
struct CaseTiming {
  std::string part;
  std::string label;
  std::string build;     // "plain" or "checking"
  double prepare_s = 0;  // before the child: its folder, the request, the sandbox's preparation
  double child_s = 0;    // the child as the parent saw it, spawn to exit
  double start_s = -1;   // spawn until the harness's main: the sandbox, exec, loading, constructors
  double setup_s = -1;   // main until the call: the runtime's start, the request, the inputs to the device
  double call_s = -1;    // the host function with its device synchronisation
  double finish_s = -1;  // after the call until exit: the checks, writing outputs and the report
  double read_s = 0;     // the parent reading what the child left: file checks, findings, result.json
  double compare_s = 0;  // reading the expected outputs and the child's, and comparing them
  double profile_s = 0;  // reading the emulator's profile (the profiled case only)
  // "new": the first case of its child (a part's cases run one after another in one child);
  // "same": a later one. fresh_process: why the child stopped after this case, if it asked to.
  std::string child = "new";
  std::string fresh_process;
};

struct GradingTimings {
  std::vector<StepTiming> steps;  // in the order they ran
  std::vector<CaseTiming> cases;
  double total_s = 0;
};

// The breakdown as a table for people (stderr of `gpulab grade --timings`).
std::string timings_text(const GradingTimings& t);

}  // namespace gpulab::grade
