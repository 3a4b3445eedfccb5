// What the harness reports from inside a submission's process (its
// result.json), as types, read as untrusted input: the process that wrote it
// is the submission's, which can write anything there. Every field is checked
// (type, range, finite numbers, names the part knows, list lengths, no key
// the harness does not write) through the validating JsonReader; a report
// that fails is an UntrustedInputError naming the field, which costs that run
// (the case, or the part's speed test) and marks the submission for review,
// never the grader. The parent still trusts nothing here for correctness that
// it can check itself: it compares the outputs with values the child never saw.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "lab/json_reader.hpp"
#include "lab/lab_spec.hpp"

namespace gpulab::grade {

enum class HarnessStatus { started, ok, missing_function, cuda_error, timed_output_wrong, harness_error };

struct GuardOverrun {
  std::string buffer;  // the part's buffer
  std::string where;   // "before" or "after"
  long long offset = 0;
};

// How many bytes reached host memory while the submission's host function ran, per route
// (harness/transfer_log.hpp, harness/transfer_routes.hpp): what decides whether its result came
// from the GPU.
struct RouteBytes {
  std::string route;  // an id of harness::kTransferRoutes
  unsigned long long bytes = 0;
};
struct TransferReport {
  std::vector<RouteBytes> routes;
  unsigned long long total_bytes() const;
};

// What the harness checked after one call of the host function.
struct CallInspection {
  std::vector<std::string> inputs_modified;
  std::vector<GuardOverrun> guard_overruns;
  std::optional<TransferReport> transfers;  // absent from a harness that does not track them
};

struct DeviceIdentity {
  std::string name, uuid, compute_capability;
  long long l2_bytes = 0, multiprocessors = 0, clock_khz = 0;
  bool emulated = false;
};

struct TimingReport {
  double median_s = 0, min_s = 0, max_s = 0, spread = 0;
  long long runs = 0, calls = 0;
  double l2_flush_bytes = 0;
  bool l2_persisting_reset = false;
  std::vector<double> samples_s;
};

enum class VerificationStatus { checked, unavailable, tampered };
struct VerificationReport {
  VerificationStatus status = VerificationStatus::unavailable;
  long long calls_checked = 0;
  std::string reason;
};

struct HarnessReport {
  HarnessStatus status = HarnessStatus::started;
  std::string message;             // the harness's words for a status other than ok
  std::string cuda_error;          // "cudaErrorX: text"
  double seconds = 0;              // the checked call, on the child's clock
  long long kernel_launches = -1;  // -1: nothing counted
  CallInspection call;
  std::optional<CallInspection> recheck;
  std::optional<DeviceIdentity> device;
  std::optional<double> copy_bandwidth;  // bytes/s, a probe's
  std::optional<TimingReport> timing;
  std::optional<VerificationReport> verification;
};

// What the parent asked of the run, so that the report can be held to it.
struct ReportExpectations {
  const PartSpec* part = nullptr;  // the part run
  bool probe = false;              // a probe of the device: no call of the host function
  bool timing = false;             // "timing" was requested
  bool recheck = false;            // "recheck" was requested
  long long max_timed_calls = 0;   // the most timed calls the request allows (samples, calls)
};

// The largest result.json the parent reads: larger is not a report the harness writes.
inline constexpr size_t kMaxReportBytes = size_t{1} << 20;

// Parses `text` (the file's content, named `file` in messages) as the harness's report. Throws
// UntrustedInputError: not JSON, too large, a missing, extra or mistyped field, a number out of
// range or not finite, a name the part does not have, a list longer than the request allows.
HarnessReport read_harness_report(const std::string& text, const std::string& file, const ReportExpectations& e);

// The words of a status ("timed_output_wrong").
std::string to_string(HarnessStatus s);

}  // namespace gpulab::grade
