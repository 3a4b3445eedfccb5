// The performance scorer's runs (performance.hpp): a program's timed run on a part's timed case
// (the child's checked timed calls, then its outputs compared here with the gold), the device
// probe of a trusted program, the reference's time on this device (cached for an hour) and the
// trusted timing that bounds a submission's reported times (timing_bound.hpp).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "files/grader_error.hpp"
#include "files/utf8_text.hpp"
#include "grade/case_findings.hpp"
#include "grade/dataset_cache.hpp"
#include "grade/performance.hpp"
#include "grade/speed_run_timing.hpp"
#include "grade/submission_build.hpp"
#include "lab/performance_spec.hpp"
#include "lab/size_expression.hpp"
#include "toolchain/content_hash.hpp"

namespace gpulab::grade {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
constexpr double kReferenceCacheSeconds = 3600;  // a reference time is reused for an hour on the same device
// Part of the reference-time cache key: a reference timed by an earlier method is timed again.
constexpr const char* kTimingMethod = "every call on new inputs, checked";
// The copy bandwidth is measured with buffers of this size (far larger than any L2); the
// emulator copies with the CPU, where 64 MiB already exceeds the caches.
constexpr size_t kCopyBytesGpu = size_t{1} << 30;
constexpr size_t kCopyBytesEmulator = size_t{64} << 20;

// A trusted program's timed runs: as many as fill 0.3 s, from 10 to 100. A submission then gets
// exactly as many (the parent chooses the number of calls, so that none can be claimed and not
// made), within a wall-time budget that no submission earning speed points needs.
json timing_options(long long exact_runs, double budget_s) {
  json t = {{"warmup", 3}, {"min_runs", 10}, {"max_runs", 100}, {"min_seconds", 0.3}, {"phase_markers", true}};
  if (exact_runs > 0) {
    t["min_runs"] = exact_runs;
    t["max_runs"] = exact_runs;
    t["min_seconds"] = 0;
    t["max_seconds"] = budget_s;
  }
  return t;
}

// How the harness compares each timed call's output with the checker's.
json check_request(const PartSpec& part) {
  if (part.check.kind != "float_bound") return {{"exact", true}};
  const double depth = evaluate_size_expression(part.performance->error_depth, part.performance->sizes);
  // The checker's result has rounding errors of its own: twice the part's bound, as `gpulab bench` checks.
  return {{"exact", false}, {"tolerance", 2.0 * part.check.factor * std::ldexp(1.0, -24) * depth}};
}

// This grading's share of every timed call's randomness: fresh, and mixed with the hidden seed
// where one is set, never derived from the public seed alone.
uint64_t grading_seed(const LabSpec& lab) {
  std::random_device device;
  uint64_t seed = (static_cast<uint64_t>(device()) << 32) ^ device();
  if (const char* secret = std::getenv(lab.hidden_seed_env.c_str()); secret && *secret) {
    seed ^= std::stoull(toolchain::ContentHash().add(secret).add("timed inputs").hex().substr(0, 16), nullptr, 16);
  }
  return seed;
}

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

json read_json_file(const fs::path& p) {
  std::ifstream in(p);
  if (!in) return nullptr;
  try {
    return json::parse(in);
  } catch (const json::exception&) {
    return nullptr;
  }
}

void write_json_file(const fs::path& p, const json& j) {
  fs::create_directories(p.parent_path());
  const fs::path tmp = p.string() + ".tmp";
  std::ofstream(tmp) << j.dump(1) << "\n";
  std::error_code ec;
  fs::rename(tmp, p, ec);
}

}  // namespace

PerformanceScorer::PerformanceScorer(const LabSpec& lab, const GradeOptions& options, fs::path work,
                                     const SubmissionRunner& runner, TrustedPrograms& trusted)
    : lab_(lab),
      options_(options),
      work_(std::move(work)),
      runner_(runner),
      trusted_(trusted),
      seed_(grading_seed(lab)) {}

const Manifest& PerformanceScorer::manifest() {
  if (!manifest_) manifest_ = cached_public_datasets(lab_, Selection::performance);
  return *manifest_;
}

const DatasetCase& PerformanceScorer::find_case(const PartSpec& part, const std::string& family) {
  for (const DatasetCase& c : manifest().cases)
    if (c.part == part.name && c.family == family) return c;
  throw DatasetError("the performance datasets of lab '" + lab_.lab + "' have no " + family + " case for part '" +
                     part.name + "' (delete " + manifest().directory.string() + " to regenerate them)");
}

PerformanceScorer::TimedRun PerformanceScorer::run_timed(const PartSpec& part, const fs::path& program,
                                                         const std::string& folder, bool recheck, bool trusted_run,
                                                         long long exact_runs, double budget_s) {
  const DatasetCase& timed = find_case(part, "timed");
  const DatasetCase& second = find_case(part, "recheck");
  json alternates = json::object();
  std::vector<fs::path> files;  // the second input set: mixed into every timed call's inputs, and the recheck's
  for (const ParamSpec& p : part.params) {
    if (p.role != ParamRole::input) continue;
    files.push_back(fs::absolute(manifest().directory / second.file("input", p.name)->file));
    alternates[p.name] = files.back().string();
  }
  json timing = timing_options(exact_runs, budget_s);
  timing["alternates"] = alternates;
  timing["seed"] = std::to_string(seed_);
  timing["check"] = check_request(part);
  json extra = {{"timing", timing}};
  if (recheck) extra["recheck"] = alternates;
  TimedRun t;
  t.run = run_harness_case(part, manifest(), timed, program, work_ / folder, runner_, extra, 0, {}, files);
  if (!t.run.harness_error.empty()) {
    // From the reference: the grader's problem. From a submission: believed only if a trusted
    // program fails the same case too (which then throws).
    if (trusted_run) throw files::GraderError(t.run.harness_error);
    t.run.review = trusted_.check_harness_failure(part, manifest(), timed, t.run.harness_error, work_ / "trusted");
    t.run.failure =
        "your program's process reported that the grader's harness failed, which it does not do for a "
        "program of the course's own: this run cannot be timed, and your submission is marked for the "
        "instructor's review";
    t.run.failure_kind = FailureKind::tampering;
  }
  const std::string what = "part " + part.name + " speed: " + (trusted_run ? "trusted" : "submission's") + " timed run";
  if (!t.run.failure.empty()) {
    run_timings_.push_back(speed_run_step(what, t.run.child, 0));
    return t;
  }
  const auto compare_start = std::chrono::steady_clock::now();
  const HarnessReport& report = *t.run.report;
  if (report.timing && report.timing->runs > 0) {
    t.phase = phase_timing(t.run.child, report.timing->runs, report.timing->samples_s);
  }
  for (const Problem& w :
       harness_findings(report.call, report.kernel_launches, part.host_work, input_volume(part, timed)))
    t.wrong.push_back(w.text);
  for (const Problem& w : compare_case_outputs(part, manifest(), timed, t.run.dir, "output_")) {
    t.wrong.push_back("the " + timed.label() + ": " + w.text);
  }
  const auto compared = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - compare_start).count();
  };
  if (!recheck) {
    run_timings_.push_back(speed_run_step(what, t.run.child, compared()));
    return t;
  }
  for (const Problem& w :
       harness_findings(report.recheck.value_or(CallInspection{}), -1, part.host_work, input_volume(part, second))) {
    t.wrong.push_back("when called again after the timed runs: " + w.text);
  }
  std::vector<std::string> stale;
  for (const Problem& w : compare_case_outputs(part, manifest(), second, t.run.dir, "recheck_"))
    stale.push_back(w.text);
  if (!stale.empty()) {
    t.wrong.push_back(
        "after the timed runs your function was called once more, on the recheck inputs, and its "
        "result was wrong: does it keep results from an earlier call or skip work when called again? " +
        fmt::format("{}", fmt::join(stale, "\n")));
  }
  run_timings_.push_back(speed_run_step(what, t.run.child, compared()));
  return t;
}

const PerformanceScorer::DeviceProbe& PerformanceScorer::probe(const PartSpec& part) {
  if (probe_) return *probe_;
  probe_ = DeviceProbe{};
  // A program no submission touched: the reference, or else (a student kit) the lab's checker.
  std::string problem;
  const fs::path& trusted = trusted_.any(problem);
  if (trusted.empty()) {
    probe_->problem = problem;
    return *probe_;
  }
  const json extra = {
      {"probe", true},
      {"copy_bandwidth", true},
      {"copy_bandwidth_bytes", options_.backend == toolchain::Backend::emu ? kCopyBytesEmulator : kCopyBytesGpu}};
  const CaseRun run =
      run_harness_case(part, manifest(), find_case(part, "timed"), trusted, work_ / "probe", runner_, extra);
  run_timings_.push_back(speed_run_step("part " + part.name + " speed: the device probe", run.child, 0));
  if (!run.harness_error.empty()) throw files::GraderError(run.harness_error);
  if (!run.failure.empty()) {
    probe_->problem = "the grader's probe of the device (" + trusted.filename().string() + ") failed: " + run.failure;
    return *probe_;
  }
  probe_->device = run.report->device.value_or(DeviceIdentity{});
  probe_->copy_bandwidth = run.report->copy_bandwidth.value_or(0.0);
  return *probe_;
}

double PerformanceScorer::reference_seconds(const PartSpec& part, const std::string& uuid, std::string& problem) {
  const fs::path& program = trusted_.reference(problem);
  if (program.empty()) return 0;

  const fs::path cache = toolchain::cache_directory() / "reference-times" /
                         (toolchain::ContentHash()
                              .add(uuid)
                              .add(lab_.lab)
                              .add(lab_.version)
                              .add(program.string())
                              .add(part.name)
                              .add(json(part.performance->sizes).dump())
                              .add(kTimingMethod)
                              .hex() +
                          ".json");
  const json cached = read_json_file(cache);
  if (cached.is_object() && now_seconds() - cached.value("measured_at", 0.0) < kReferenceCacheSeconds) {
    return cached.value("seconds", 0.0);
  }
  // The reference was timed in this grading already (trusted_timing): its median is the time.
  const TrustedTiming& timed = trusted_timing(part);
  if (!timed.is_reference || !timed.problem.empty()) {
    problem = "the reference solution failed the timed case on this device, so speed cannot be compared: " +
              (timed.problem.empty() ? std::string("it was not timed") : timed.problem);
    return 0;
  }
  const double seconds = timed.median_s;
  write_json_file(cache, {{"seconds", seconds}, {"measured_at", now_seconds()}});
  return seconds;
}

const PerformanceScorer::TrustedTiming& PerformanceScorer::trusted_timing(const PartSpec& part) {
  if (const auto it = trusted_timings_.find(part.name); it != trusted_timings_.end()) return it->second;
  TrustedTiming& tt = trusted_timings_[part.name];
  std::string problem;
  fs::path program = trusted_.reference(problem);
  tt.is_reference = !program.empty();
  if (program.empty()) program = trusted_.any(problem);
  if (program.empty()) {
    tt.problem = problem;
    return tt;
  }
  const TimedRun t = run_timed(part, program, "trusted-timing", false, true);
  const std::vector<std::string> wrong = t.run.failure.empty() ? t.wrong : std::vector<std::string>{t.run.failure};
  if (!wrong.empty()) {
    tt.problem = fmt::format("{}", fmt::join(wrong, "\n"));
    return tt;
  }
  tt.median_s = t.run.report->timing->median_s;
  tt.phase = t.phase;
  if (!tt.phase) tt.problem = "the trusted program's timed calls carry no marks of the harness";
  return tt;
}

}  // namespace gpulab::grade
