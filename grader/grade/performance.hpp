// Scoring a part's speed (DESIGN.md, "Timing and performance score"): the
// submission's host function is timed on the part's timed case in the
// harness (harness/timed_case.hpp: every call on inputs no earlier call saw,
// every call's output checked on the device against the lab's checker), then
// called once more on the recheck inputs, checked here against the gold. The
// reference is timed the same way, on the same GPU (or taken from a
// measurement of the last hour on the same device); the score is piecewise
// linear in t_reference / t_submission with lab.json's thresholds. A speed
// the device cannot physically reach (plausibility.hpp) earns nothing and is
// flagged for review. Where the reference is not installed (a student kit),
// memory-bound parts fall back to the fraction of the device's copy
// bandwidth, and say so; where the timed calls cannot be checked (no checker
// installed), speed is measured and shown but not scored. The device's
// identity and copy bandwidth are measured by a trusted program (the
// reference, or in a kit the lab's checker), never in the submission's process.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "data/dataset.hpp"
#include "grade/case_runner.hpp"
#include "grade/grading_timings.hpp"
#include "grade/harness_report.hpp"
#include "grade/timing_bound.hpp"
#include "grade/trusted_program.hpp"
#include "grading.hpp"
#include "submission_runner.hpp"

namespace gpulab::grade {

// The reference's speed on this device, for `gpulab calibrate`.
struct Calibration {
  std::string device;
  std::string case_label;
  double seconds = 0;
  double spread = 0;
  int runs = 0;
  std::string rate_unit;
  double rate = 0;
  double copy_bandwidth = 0;                              // bytes/s
  double bandwidth_fraction = 0;                          // memory-bound parts
  std::vector<ScorePoint> proposed_bandwidth_thresholds;  // scaled from the reference's fraction
};

class PerformanceScorer {
 public:
  // Runs go through `runner`; the reference and the probe's program come from `trusted`. Both must
  // outlive the scorer.
  PerformanceScorer(const LabSpec& lab, const GradeOptions& options, std::filesystem::path work,
                    const SubmissionRunner& runner, TrustedPrograms& trusted);

  // `correct`: every correctness case of the part passed (speed is scored only then).
  PerformanceResult measure(const PartSpec& part, const std::filesystem::path& program, bool correct);
  // Times the reference on the timed case (no cache); throws std::runtime_error when it cannot.
  Calibration calibrate(const PartSpec& part);
  // Each speed run's child since the last call (`gpulab grade --timings`), handed over once.
  std::vector<StepTiming> take_run_timings() { return std::exchange(run_timings_, {}); }

 private:
  const Manifest& manifest();
  const DatasetCase& find_case(const PartSpec& part, const std::string& family);
  // Runs `program` on the timed case: timed calls (each checked), the copy bandwidth, and with
  // `recheck` one more call on the recheck inputs.
  struct TimedRun {
    CaseRun run;
    std::vector<std::string> wrong;    // problems with its checked outputs (timed case and recheck, against the gold)
    std::optional<PhaseTiming> phase;  // the timed calls on the parent's clock and as reported; none without marks
  };
  // `trusted_run`: the program is the reference (a harness failure is then the grader's problem).
  // `exact_runs` > 0: exactly that many timed calls, stopping early only after `budget_s` of wall time.
  TimedRun run_timed(const PartSpec& part, const std::filesystem::path& program, const std::string& folder,
                     bool recheck, bool trusted_run, long long exact_runs = 0, double budget_s = 0);
  // A trusted program's timed run in this grading (the reference, else the lab's checker): the
  // number of calls the submission gets and the harness's own work per call (timing_bound.hpp).
  struct TrustedTiming {
    std::optional<PhaseTiming> phase;
    double median_s = 0;
    bool is_reference = false;
    std::string problem;  // why there is none
  };
  const TrustedTiming& trusted_timing(const PartSpec& part);
  // The reference's median time on this device (cached for an hour), or 0 when there is no reference.
  double reference_seconds(const PartSpec& part, const std::string& device_uuid, std::string& problem);
  // The device as a trusted program sees it, once per grading: its identity and copy bandwidth.
  struct DeviceProbe {
    DeviceIdentity device;      // the probe's
    double copy_bandwidth = 0;  // bytes/s, read + written
    std::string problem;        // why there is no probe (then nothing is trusted)
  };
  const DeviceProbe& probe(const PartSpec& part);

  const LabSpec& lab_;
  GradeOptions options_;
  std::filesystem::path work_;
  const SubmissionRunner& runner_;
  TrustedPrograms& trusted_;
  std::optional<Manifest> manifest_;
  std::optional<DeviceProbe> probe_;
  std::map<std::string, TrustedTiming> trusted_timings_;  // by part
  std::vector<StepTiming> run_timings_;
  uint64_t seed_;  // of this grading: the hidden seed where one is set, mixed with fresh randomness
};

// "0 below 0.25x, 100% from 1x" style description of a threshold list.
std::string describe_thresholds(const std::vector<ScorePoint>& points, const char* unit);

}  // namespace gpulab::grade
