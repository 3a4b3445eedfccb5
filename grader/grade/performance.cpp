// Implementation of performance.hpp.
#include "grade/performance.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "grade/case_runner.hpp"
#include "grade/dataset_cache.hpp"
#include "grade/plausibility.hpp"
#include "grade/speed_run_timing.hpp"
#include "grade/submission_build.hpp"
#include "lab/performance_spec.hpp"
#include "lab/size_expression.hpp"
#include "files/grader_error.hpp"
#include "files/utf8_text.hpp"
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

std::string format_time(double s) {
  return s >= 1e-3 ? fmt::format("{:.3f} ms", s * 1e3) : fmt::format("{:.1f} us", s * 1e6);
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

std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += (s.empty() ? "" : "\n") + l;
  return s;
}

// Why the timed run cannot be scored, for the student.
std::string timed_failure(const CaseRun& run, const std::string& case_label) {
  if (run.report && run.report->status == HarnessStatus::timed_output_wrong) {
    return run.failure +
           ".\nEvery timed call gets inputs that no earlier call saw, and its output is checked against the lab's "
           "checker: a function that returns results kept from an earlier call, or does less work when it is called "
           "again, fails here.";
  }
  return "the " + case_label + " failed: " + run.failure;
}
}  // namespace

std::string describe_thresholds(const std::vector<ScorePoint>& points, const char* unit) {
  std::string s;
  for (const ScorePoint& p : points)
    s += (s.empty() ? "" : ", ") + fmt::format("{:g}{} -> {:.0f}%", p.x, unit, p.fraction * 100);
  return s + " (linear in between)";
}

struct PerformanceScorer::TimedRun {
  CaseRun run;
  std::vector<std::string> wrong;    // problems with its checked outputs (timed case and recheck, against the gold)
  std::optional<PhaseTiming> phase;  // the timed calls on the parent's clock and as reported; none without marks
};

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
        join(stale));
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
    tt.problem = join(wrong);
    return tt;
  }
  tt.median_s = t.run.report->timing->median_s;
  tt.phase = t.phase;
  if (!tt.phase) tt.problem = "the trusted program's timed calls carry no marks of the harness";
  return tt;
}

PerformanceResult PerformanceScorer::measure(const PartSpec& part, const fs::path& program, bool correct) {
  const PerformanceSpec& spec = *part.performance;
  PerformanceResult r;
  r.max_score = spec.points;
  r.counted = true;
  if (!correct) {
    r.status = PerformanceStatus::failed;
    r.feedback = "speed is scored only when every correctness case of this part passes: fix those first";
    return r;
  }
  r.case_label = find_case(part, "timed").label();
  // A trusted program first: how many calls the submission makes, and what the parent's clock
  // should see of them (timing_bound.hpp).
  const TrustedTiming& calibration = trusted_timing(part);
  const long long exact_runs = calibration.phase ? calibration.phase->runs : 0;
  const double budget_s = calibration.phase ? std::max(2.0, 20 * calibration.phase->wall_s + 1.0) : 0;
  const TimedRun t = run_timed(part, program, "performance", true, false, exact_runs, budget_s);
  if (!t.run.failure.empty() || !t.wrong.empty()) {
    r.status = PerformanceStatus::failed;
    r.review = t.run.review;
    r.feedback = t.run.failure.empty() ? join(t.wrong) : timed_failure(t.run, r.case_label);
    return r;
  }

  const TimingReport& timing = *t.run.report->timing;
  r.seconds = timing.median_s;
  r.spread = timing.spread;
  r.runs = static_cast<int>(timing.runs);
  // The device and its copy bandwidth come from the grader's own probe, not from the
  // submission's process (which could slow the copy down, or name another device).
  const DeviceProbe& trusted = probe(part);
  const DeviceIdentity reported = t.run.report->device.value_or(DeviceIdentity{});
  const DeviceIdentity& device = trusted.problem.empty() ? trusted.device : reported;
  r.device = files::valid_utf8(device.name.empty() ? "this device" : device.name);
  const std::string uuid = device.uuid + "/" + r.device;
  const double work = performance_work(spec, part);
  const bool bytes = spec.work == "bytes";
  r.rate_unit = bytes ? "GB/s" : "GFLOP/s";
  r.rate = r.seconds > 0 ? work / r.seconds / 1e9 : 0;
  r.copy_bandwidth = trusted.copy_bandwidth;
  if (bytes && r.copy_bandwidth > 0) r.bandwidth_fraction = r.rate * 1e9 / r.copy_bandwidth;
  const VerificationReport& verification = *t.run.report->verification;
  r.calls_checked = static_cast<int>(verification.calls_checked);
  r.calls = static_cast<int>(timing.calls);
  r.l2_flush_bytes = timing.l2_flush_bytes;
  r.l2_persisting_reset = timing.l2_persisting_reset;

  std::string text = "median " + format_time(r.seconds) + " over " + std::to_string(r.runs) +
                     fmt::format(" runs (spread {:.1f}%)", r.spread * 100) + " on " + r.device + ", " + r.case_label +
                     fmt::format(": {:.1f} ", r.rate) + r.rate_unit;
  if (bytes && r.copy_bandwidth > 0) {
    text += fmt::format(" = {:.0f}% of this device's copy bandwidth ({:.0f} GB/s)", r.bandwidth_fraction * 100,
                        r.copy_bandwidth / 1e9);
  }
  if (verification.status == VerificationStatus::checked) {
    text +=
        fmt::format("; each of the {} calls had new inputs and its output matched the lab's checker", r.calls_checked);
  }

  if (!trusted.problem.empty()) {
    r.status = PerformanceStatus::not_measured;
    r.counted = false;
    r.feedback = text + fmt::format(".\nThese {:g} points are not scored here: ", spec.points) + trusted.problem +
                 ". This is a problem of the installation, not of your code.";
    return r;
  }
  if (reported.uuid != trusted.device.uuid) {
    r.status = PerformanceStatus::failed;
    r.review = files::valid_utf8("the timed run says it ran on " + reported.name + " (" + reported.uuid +
                                 "), but the grader's probe found " + r.device + " (" + trusted.device.uuid + ")");
    r.feedback = text + ".\n" + r.review +
                 ": the timing cannot be trusted, so this part earns no speed points, and "
                 "the instructor is asked to look at this submission.";
    return r;
  }
  // A speed beyond what the device can do is not the work's.
  const Plausibility plausible =
      judge_speed(performance_bytes(spec, part), bytes ? 0 : work, timing.min_s, r.copy_bandwidth, device);
  if (!plausible.plausible) {
    r.status = PerformanceStatus::implausible;
    r.review = plausible.reason;
    r.feedback = text + ".\nImplausible, for review: " + plausible.reason +
                 ". That time cannot be the work's, so this part earns no speed points, and the instructor is asked "
                 "to look at this submission.";
    return r;
  }
  // The time the program reports against the parent's own clock (timing_bound.hpp).
  if (calibration.phase) {
    std::string review;
    if (!t.phase) {
      review =
          "the harness's marks of its timed calls are missing from the program's output (something in the "
          "program changed what the harness writes), so the grader's own clock cannot bound its time";
    } else if (t.phase->runs < exact_runs && t.phase->wall_s < 0.9 * budget_s) {
      review = fmt::format(
          "the program reports {} timed calls where the grader asked for {}, before the {:.1f} s "
          "budget that would explain stopping early had passed",
          t.phase->runs, exact_runs, budget_s);
    } else {
      const BoundVerdict v =
          check_timing_bound(*t.phase, *calibration.phase, options_.backend == toolchain::Backend::emu);
      r.wall_per_call_s = t.phase->wall_s / static_cast<double>(t.phase->runs);
      r.harness_per_call_s = v.harness_s;
      r.overhead_per_call_s = v.overhead_s;
      r.unexplained_per_call_s = v.unexplained_s;
      r.bound_noise_s = v.noise_s;
      r.bound_margin_s = v.margin_s;
      if (!v.consistent) review = v.reason;
    }
    if (!review.empty()) {
      r.status = PerformanceStatus::implausible;
      r.review = review;
      r.feedback = text + ".\nImplausible, for review: " + review +
                   ". This part earns no speed points, and the instructor is asked to look at this submission.";
      return r;
    }
  } else {
    text += " (the grader's own clock could not bound this time: " + calibration.problem + ")";
  }
  if (verification.status == VerificationStatus::tampered) {
    r.status = PerformanceStatus::failed;
    r.review = "the program's check of its timed calls was tampered with: " +
               files::valid_utf8(verification.reason.empty() ? "no reason given" : verification.reason);
    r.feedback = text + ".\nThe timed calls could not be checked because " + r.review +
                 ". This part earns no speed points, and the instructor is asked to look at this submission.";
    return r;
  }
  if (verification.status != VerificationStatus::checked) {
    r.status = PerformanceStatus::not_measured;
    r.counted = false;
    r.feedback =
        text +
        fmt::format(
            ".\nThese {:g} points are not scored here: every timed call's output must be checked, "
            "and ",
            spec.points) +
        files::valid_utf8(verification.reason.empty() ? "the harness did not check them" : verification.reason) + ".";
    if (bytes && !spec.bandwidth_thresholds.empty() && r.copy_bandwidth > 0) {
      r.feedback += fmt::format(
          " By the course's thresholds for this fraction of copy bandwidth ({}) this speed would earn "
          "about {:.0f}% of them.",
          describe_thresholds(spec.bandwidth_thresholds, ""),
          100 * PerformanceSpec::fraction_at(spec.bandwidth_thresholds, r.bandwidth_fraction));
    }
    return r;
  }

  std::string problem;
  r.reference_seconds = reference_seconds(part, uuid, problem);
  double fraction = 0;
  if (r.reference_seconds > 0 && r.seconds > 0) {
    r.ratio = r.reference_seconds / r.seconds;
    fraction = PerformanceSpec::fraction_at(spec.thresholds, r.ratio);
    text += ".\nThe reference takes " + format_time(r.reference_seconds) +
            fmt::format(", so yours runs at {:.2f}x its speed. ", r.ratio) +
            "Score by speed relative to the reference: " + describe_thresholds(spec.thresholds, "x") + ".";
  } else if (bytes && !spec.bandwidth_thresholds.empty() && r.copy_bandwidth > 0 && problem.empty()) {
    fraction = PerformanceSpec::fraction_at(spec.bandwidth_thresholds, r.bandwidth_fraction);
    text +=
        ".\nThe reference solution is not installed here (a student kit), so speed is scored by the fraction "
        "of copy bandwidth instead: " +
        describe_thresholds(spec.bandwidth_thresholds, "") + ".";
  } else {
    r.status = PerformanceStatus::not_measured;
    r.counted = false;
    r.feedback =
        text + ".\n" +
        (problem.empty() ? fmt::format("No reference solution is installed here to compare with, so these {:g} "
                                       "points are not scored in this run.",
                                       spec.points)
                         : problem);
    return r;
  }
  r.status = PerformanceStatus::scored;
  r.score = fraction * spec.points;
  r.feedback = text + fmt::format(" You earn {:.0f}% of the {:g} points.", fraction * 100, spec.points);
  return r;
}

Calibration PerformanceScorer::calibrate(const PartSpec& part) {
  const fs::path source = toolchain::project_root() / "reference" / lab_.lab / (lab_.lab + ".cu");
  if (!fs::exists(source)) throw std::runtime_error("calibrating needs the reference solution " + source.string());
  std::string problem;
  const fs::path& program = trusted_.reference(problem);
  if (program.empty()) throw std::runtime_error(problem);
  const TimedRun t = run_timed(part, program, "calibrate-" + part.name, false, true);
  const std::string label = find_case(part, "timed").label();
  if (!t.run.failure.empty()) throw std::runtime_error(timed_failure(t.run, label));
  if (!t.wrong.empty()) throw std::runtime_error("the reference failed the " + label + ": " + join(t.wrong));
  Calibration c;
  const DeviceIdentity device = t.run.report->device.value_or(DeviceIdentity{});
  c.device = device.name.empty() ? "this device" : device.name;
  c.case_label = label;
  const TimingReport& timing = *t.run.report->timing;
  c.seconds = timing.median_s;
  c.spread = timing.spread;
  c.runs = static_cast<int>(timing.runs);
  const PerformanceSpec& spec = *part.performance;
  c.rate_unit = spec.work == "bytes" ? "GB/s" : "GFLOP/s";
  c.rate = c.seconds > 0 ? performance_work(spec, part) / c.seconds / 1e9 : 0;
  c.copy_bandwidth = probe(part).copy_bandwidth;
  if (spec.work == "bytes" && c.copy_bandwidth > 0) {
    c.bandwidth_fraction = c.rate * 1e9 / c.copy_bandwidth;
    // The same shape as the speed-ratio thresholds, in units of the reference's own fraction.
    for (const ScorePoint& p : spec.thresholds) {
      c.proposed_bandwidth_thresholds.push_back({std::round(p.x * c.bandwidth_fraction * 1000) / 1000, p.fraction});
    }
  }
  return c;
}

}  // namespace gpulab::grade
