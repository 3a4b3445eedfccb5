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
#include <optional>

#include "data/dataset.hpp"
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
  // Runs (and the reference's compile) go through `runner`, which must outlive the scorer.
  PerformanceScorer(const LabSpec& lab, const GradeOptions& options, std::filesystem::path work,
                    const SubmissionRunner& runner);

  // `correct`: every correctness case of the part passed (speed is scored only then).
  PerformanceResult measure(const PartSpec& part, const std::filesystem::path& program, bool correct);
  // Times the reference on the timed case (no cache); throws std::runtime_error when it cannot.
  Calibration calibrate(const PartSpec& part);

 private:
  const Manifest& manifest();
  const DatasetCase& find_case(const PartSpec& part, const std::string& family);
  // Runs `program` on the timed case: timed calls (each checked), the copy bandwidth, and with
  // `recheck` one more call on the recheck inputs.
  struct TimedRun;
  TimedRun run_timed(const PartSpec& part, const std::filesystem::path& program, const std::string& folder,
                     bool recheck);
  // The reference's median time on this device (cached for an hour), or 0 when there is no reference.
  double reference_seconds(const PartSpec& part, const std::string& device_uuid, std::string& problem);
  // `source` built with the harness (a trusted program); an empty path and `problem` when it does not compile.
  std::filesystem::path build_trusted(const std::filesystem::path& source, const std::string& what,
                                      std::string& problem);
  // The reference's program (built once); an empty path when it is not installed or does not compile.
  const std::filesystem::path& reference_program(std::string& problem);
  // The device as a trusted program sees it, once per grading: its identity and copy bandwidth.
  struct DeviceProbe {
    nlohmann::json device = nlohmann::json::object();  // the harness's "device" object
    double copy_bandwidth = 0;                         // bytes/s, read + written
    std::string problem;                               // why there is no probe (then nothing is trusted)
  };
  const DeviceProbe& probe(const PartSpec& part);

  const LabSpec& lab_;
  GradeOptions options_;
  std::filesystem::path work_;
  const SubmissionRunner& runner_;
  std::optional<Manifest> manifest_;
  std::optional<std::filesystem::path> reference_program_;
  std::string reference_problem_;  // why the reference did not compile
  std::optional<DeviceProbe> probe_;
  uint64_t seed_;  // of this grading: the hidden seed where one is set, mixed with fresh randomness
};

// "0 below 0.25x, 100% from 1x" style description of a threshold list.
std::string describe_thresholds(const std::vector<ScorePoint>& points, const char* unit);

}  // namespace gpulab::grade
