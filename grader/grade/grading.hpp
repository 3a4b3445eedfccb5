// Grading one submission for one lab: build it with the harness, run every
// dataset case of every part in its own child process, compare the outputs
// with the expected ones, and score each part on its own.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "grade/failure_kind.hpp"
#include "grade/grading_timings.hpp"
#include "grade/performance_status.hpp"
#include "grade/stop_reason.hpp"
#include "lab/lab_spec.hpp"
#include "profile/counters.hpp"
#include "profile/profile_report.hpp"
#include "sandbox/sandbox.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::grade {

// Whether speed is scored: automatic means on a GPU (cuda backend) only. `on` with the
// emulator times the CPU, which tests the method but says nothing about a GPU.
enum class PerformanceMode { automatic, on, off };

struct GradeOptions {
  toolchain::Backend backend = toolchain::Backend::emu;
  PerformanceMode performance = PerformanceMode::automatic;
  std::string cuda_arch = "sm_90";  // cuda backend: the GPU architecture to compile for
  bool include_large = true;        // the public cases too large to commit, generated from the public seed
  bool include_hidden = true;       // when the hidden seed's environment variable is set
  std::string hidden_visibility;    // overrides lab.json's (e.g. "visible" for a regrade)
  bool use_cache = true;
  bool race_check = true;  // emulator: run the public cases in the race-checking build
  bool sanitize = false;   // cuda: also run a committed case per part under compute-sanitizer
  bool counters = false;   // also count a committed case's memory requests (hardware_counters.hpp)
  sandbox::Mode sandbox = sandbox::Mode::bwrap;  // the isolation (--sandbox, docs/security.md); none: --no-sandbox
  // What the submission must not reach besides gpulab's folder, the build cache and the submission
  // itself (e.g. the results file's folder); checked where the isolation relies on file permissions.
  std::vector<sandbox::PrivatePath> private_paths;
  std::vector<std::string> only_parts;  // empty: all parts
};

struct CaseResult {
  std::string part;
  std::string id;
  std::string label;  // "dataset 7 (n=1000003)"
  std::string family;
  std::map<std::string, long long> sizes;  // the case's sizes by name ("n" -> 1000003)
  bool hidden = false;
  bool run = true;  // false: skipped after a smaller case of the part hit a limit
  bool passed = false;
  double score = 0;
  double max_score = 0;
  double seconds = 0;
  StopReason stopped_by = StopReason::none;  // the limit that stopped the run, if one did
  FailureKind failure = FailureKind::none;   // why it failed, as a kind; none when passed
  std::string feedback;                      // why it failed, in words; empty when passed
  std::vector<std::string> diagnostics;      // the emulator's findings during this case
  std::string review;                        // what the instructor should look at (FailureKind::tampering)
};

// The speed of a part on the timed case (see performance.hpp).
struct PerformanceResult {
  // scored; failed (a wrong timed output, or any other failure); implausible (faster than the
  // device can go: no points, flagged for review); not_measured (its points leave the maximum)
  PerformanceStatus status = PerformanceStatus::not_measured;
  bool counted = false;  // its points are part of the maximum
  double score = 0;
  double max_score = 0;
  double seconds = 0;  // median of the timed runs
  double spread = 0;   // interquartile range / median
  int runs = 0;
  double reference_seconds = 0;  // 0 when no reference was timed
  double ratio = 0;              // reference_seconds / seconds
  std::string rate_unit;         // "GB/s" or "GFLOP/s"
  double rate = 0;
  double copy_bandwidth = 0;  // the device's measured copy bandwidth, bytes/s (memory-bound parts)
  double bandwidth_fraction = 0;
  std::string device;
  std::string case_label;     // "timed case (n=67108864)"
  int calls_checked = 0;      // timed calls (warm-up included) whose output was checked against the lab's checker
  int calls = 0;              // timed calls made, warm-up included, each on inputs no earlier call saw
  double l2_flush_bytes = 0;  // written before every call to flush L2 (0: not flushed)
  bool l2_persisting_reset = false;  // persisting L2 lines reset and their set-aside set to 0 before every call
  // The grader's own clock (timing_bound.hpp): per timed call, the wall time of the timed phase, the
  // harness's own work between calls and what the marks and events add to each call's window (both
  // from a trusted program), what none of them accounts for, the trusted run's spread of a call's
  // overhead and the margin (which includes that spread); all 0 when it could not be measured.
  double wall_per_call_s = 0, harness_per_call_s = 0, overhead_per_call_s = 0, unexplained_per_call_s = 0,
         bound_noise_s = 0, bound_margin_s = 0;
  std::string review;    // status "implausible": why, for the instructor
  std::string feedback;  // what was measured and how it was scored, or why not

  bool operator==(const PerformanceResult&) const = default;
};

struct PartResult {
  std::string name;
  std::string signature;
  double score = 0;
  double max_score = 0;
  std::vector<CaseResult> cases;
  std::optional<PerformanceResult> performance;  // absent when the lab scores no speed for this part
  bool sanitized = false;                        // ran under compute-sanitizer (--sanitize)
  std::string sanitizer_case;                    // which case
  std::vector<std::string> sanitizer_findings;   // one line each (kernel, source line, threads); no effect on the score
  // Emulator: the profile of the cases run in the checking build (hints, no points).
  std::optional<profile::ProfileReport> profile;
  // --counters: one case's memory requests per kernel, under Nsight Compute's metric names.
  std::string counters_case, counters_source, counters_problem;
  profile::KernelCounters counters;
};

// Something the grade cannot vouch for, for the instructor to look at: an audit finding in the
// submission's object, a run whose report could not be trusted, a refused system call. The
// student's feedback says the same in the place it happened.
struct ReviewNote {
  std::string part;    // the part it happened in; empty: the whole submission
  std::string reason;  // the grader's words, for the instructor
  bool operator==(const ReviewNote&) const = default;
};

// One finding of the audit of the submission's object (grader/audit/): what it names, a sentence
// for the student, and where.
struct AuditNote {
  std::string kind;  // interposition, forbidden_call, harness_reference, raw_system_call, ...
  std::string symbol;
  std::string sentence;
  std::string where;
  bool operator==(const AuditNote&) const = default;
};

struct GradeResult {
  std::string lab;
  std::string lab_version;
  std::string submission;
  std::string backend;
  bool compiled = false;
  std::string compile_output;
  std::string not_graded;  // a handed-in folder with no single file to grade: why (then nothing was compiled)
  std::string hidden_visibility;
  std::vector<PartResult> parts;
  double score = 0;
  double max_score = 0;
  double seconds = 0;
  std::string performance_note;  // why speed was not scored in this run, if it was not
  double compile_seconds = 0;
  std::string isolation;           // how the submission was isolated, in words ("" when nothing ran)
  std::vector<ReviewNote> review;  // what the instructor should look at; empty when nothing
  // The audit of the submission's object before it was linked; a finding costs every part its
  // speed points and withholds what the program reports of itself (docs/security.md).
  std::vector<AuditNote> audit;
  double audit_seconds = 0;
  GradingTimings timings;  // where the time went (`gpulab grade --timings`); measurement only
};

// Whether these options score speed (PerformanceMode::automatic: on the cuda backend only).
bool speed_is_scored(const GradeOptions& options);
// A part's maximum under these options: without speed scoring, its speed points are left out.
double part_max_points(const PartSpec& part, bool speed_scored);

// Finds assignments/<lab>/lab.json under the project root; LabSpecError if absent.
LabSpec load_lab(const std::string& lab);
// Throws files::GraderError for the cuda backend where no NVIDIA GPU is visible.
void require_gpu_for(toolchain::Backend backend);
// What a submission must not reach: gpulab's folder, the cache, the submission's folder, and
// options.private_paths.
std::vector<sandbox::PrivatePath> private_paths_of(const std::filesystem::path& submission,
                                                   const GradeOptions& options);
// Throws sandbox::SandboxUnavailable when the isolation options.sandbox names cannot run here.
GradeResult grade_submission(const LabSpec& lab, const std::filesystem::path& submission, const GradeOptions& options);

}  // namespace gpulab::grade
