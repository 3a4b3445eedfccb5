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

json timing_options() { return {{"warmup", 3}, {"min_runs", 10}, {"max_runs", 100}, {"min_seconds", 0.3}}; }

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
  if (run.result.value("status", "") == "timed_output_wrong") {
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
  std::vector<std::string> wrong;  // problems with its checked outputs (timed case and recheck, against the gold)
};

PerformanceScorer::PerformanceScorer(const LabSpec& lab, const GradeOptions& options, fs::path work,
                                     const SubmissionRunner& runner)
    : lab_(lab), options_(options), work_(std::move(work)), runner_(runner), seed_(grading_seed(lab)) {}

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
                                                         const std::string& folder, bool recheck) {
  const DatasetCase& timed = find_case(part, "timed");
  const DatasetCase& second = find_case(part, "recheck");
  json alternates = json::object();
  std::vector<fs::path> files;  // the second input set: mixed into every timed call's inputs, and the recheck's
  for (const ParamSpec& p : part.params) {
    if (p.role != ParamRole::input) continue;
    files.push_back(fs::absolute(manifest().directory / second.file("input", p.name)->file));
    alternates[p.name] = files.back().string();
  }
  json timing = timing_options();
  timing["alternates"] = alternates;
  timing["seed"] = std::to_string(seed_);
  timing["check"] = check_request(part);
  json extra = {{"timing", timing}};
  if (recheck) extra["recheck"] = alternates;
  TimedRun t;
  t.run = run_harness_case(part, manifest(), timed, program, work_ / folder, runner_, extra, 0, {}, files);
  if (!t.run.failure.empty()) return t;
  for (const Problem& w : harness_findings(t.run.result)) t.wrong.push_back(w.text);
  for (const Problem& w : compare_case_outputs(part, manifest(), timed, t.run.dir, "output_")) {
    t.wrong.push_back("the " + timed.label() + ": " + w.text);
  }
  if (!recheck) return t;
  for (const Problem& w : harness_findings(t.run.result.value("recheck", json::object()))) {
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
  return t;
}

fs::path PerformanceScorer::build_trusted(const fs::path& source, const std::string& what, std::string& problem) {
  const toolchain::BuildResult built = build_harness_program(lab_, source, options_, runner_);
  if (built.ok) return built.executable;
  problem = what + " (" + source.string() + ") does not compile on this installation:\n" + built.compiler_output;
  return {};
}

const fs::path& PerformanceScorer::reference_program(std::string& problem) {
  if (!reference_program_) {
    const fs::path source = toolchain::project_root() / "reference" / lab_.lab / (lab_.lab + ".cu");
    reference_program_ =
        fs::exists(source) ? build_trusted(source, "the reference solution", reference_problem_) : fs::path();
  }
  problem = reference_problem_;
  return *reference_program_;
}

const PerformanceScorer::DeviceProbe& PerformanceScorer::probe(const PartSpec& part) {
  if (probe_) return *probe_;
  probe_ = DeviceProbe{};
  // A program no submission touched: the reference, or else (a student kit) the lab's checker
  // built as a complete submission of its own.
  std::string problem;
  fs::path trusted = reference_program(problem);
  const fs::path checker = toolchain::project_root() / lab_.checker_file;
  if (trusted.empty() && problem.empty() && !lab_.checker_file.empty() && fs::exists(checker)) {
    trusted = build_trusted(checker, "the lab's checker", problem);
  }
  if (trusted.empty()) {
    probe_->problem = problem.empty() ? "neither the reference nor the lab's checker is installed here" : problem;
    return *probe_;
  }
  const json extra = {
      {"probe", true},
      {"copy_bandwidth", true},
      {"copy_bandwidth_bytes", options_.backend == toolchain::Backend::emu ? kCopyBytesEmulator : kCopyBytesGpu}};
  const CaseRun run =
      run_harness_case(part, manifest(), find_case(part, "timed"), trusted, work_ / "probe", runner_, extra);
  if (!run.failure.empty()) {
    probe_->problem = "the grader's probe of the device (" + trusted.filename().string() + ") failed: " + run.failure;
    return *probe_;
  }
  probe_->device = run.result.value("device", json::object());
  probe_->copy_bandwidth = run.result.value("copy_bandwidth_bytes_per_s", 0.0);
  return *probe_;
}

double PerformanceScorer::reference_seconds(const PartSpec& part, const std::string& uuid, std::string& problem) {
  const fs::path& program = reference_program(problem);
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
  const TimedRun t = run_timed(part, program, "reference", false);
  std::vector<std::string> wrong = t.run.failure.empty() ? t.wrong : std::vector<std::string>{t.run.failure};
  if (!wrong.empty()) {
    problem =
        "the reference solution failed the timed case on this device, so speed cannot be compared: " + join(wrong);
    return 0;
  }
  const double seconds = t.run.result.at("timing").value("median_s", 0.0);
  write_json_file(
      cache,
      {{"seconds", seconds}, {"measured_at", now_seconds()}, {"device", t.run.result.value("device", json::object())}});
  return seconds;
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
  const TimedRun t = run_timed(part, program, "performance", true);
  if (!t.run.failure.empty() || !t.wrong.empty()) {
    r.status = PerformanceStatus::failed;
    r.feedback = t.run.failure.empty() ? join(t.wrong) : timed_failure(t.run, r.case_label);
    return r;
  }

  const json& timing = t.run.result.at("timing");
  r.seconds = timing.value("median_s", 0.0);
  r.spread = timing.value("spread", 0.0);
  r.runs = timing.value("runs", 0);
  // The device and its copy bandwidth come from the grader's own probe, not from the
  // submission's process (which could slow the copy down, or name another device).
  const DeviceProbe& trusted = probe(part);
  const json reported = t.run.result.value("device", json::object());
  const json& device = trusted.problem.empty() ? trusted.device : reported;
  r.device = device.value("name", std::string("this device"));
  const std::string uuid = device.value("uuid", std::string()) + "/" + r.device;
  const double work = performance_work(spec, part);
  const bool bytes = spec.work == "bytes";
  r.rate_unit = bytes ? "GB/s" : "GFLOP/s";
  r.rate = r.seconds > 0 ? work / r.seconds / 1e9 : 0;
  r.copy_bandwidth = trusted.copy_bandwidth;
  if (bytes && r.copy_bandwidth > 0) r.bandwidth_fraction = r.rate * 1e9 / r.copy_bandwidth;
  const json verification = t.run.result.value("verification", json::object());
  r.calls_checked = verification.value("calls_checked", 0);
  r.calls = timing.value("calls", 0);
  r.l2_flush_bytes = timing.value("l2_flush_bytes", 0.0);
  r.l2_persisting_reset = timing.value("l2_persisting_reset", false);

  std::string text = "median " + format_time(r.seconds) + " over " + std::to_string(r.runs) +
                     fmt::format(" runs (spread {:.1f}%)", r.spread * 100) + " on " + r.device + ", " + r.case_label +
                     fmt::format(": {:.1f} ", r.rate) + r.rate_unit;
  if (bytes && r.copy_bandwidth > 0) {
    text += fmt::format(" = {:.0f}% of this device's copy bandwidth ({:.0f} GB/s)", r.bandwidth_fraction * 100,
                        r.copy_bandwidth / 1e9);
  }
  if (verification.value("status", "") == "checked") {
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
  if (reported.value("uuid", std::string()) != trusted.device.value("uuid", std::string())) {
    r.status = PerformanceStatus::failed;
    r.review = "the timed run says it ran on " + reported.value("name", std::string("?")) + " (" +
               reported.value("uuid", std::string("?")) + "), but the grader's probe found " + r.device + " (" +
               trusted.device.value("uuid", std::string("?")) + ")";
    r.feedback = text + ".\n" + r.review +
                 ": the timing cannot be trusted, so this part earns no speed points, and "
                 "the instructor is asked to look at this submission.";
    return r;
  }
  // A speed beyond what the device can do is not the work's.
  const Plausibility plausible = judge_speed(performance_bytes(spec, part), bytes ? 0 : work,
                                             timing.value("min_s", 0.0), r.copy_bandwidth, device);
  if (!plausible.plausible) {
    r.status = PerformanceStatus::implausible;
    r.review = plausible.reason;
    r.feedback = text + ".\nImplausible, for review: " + plausible.reason +
                 ". That time cannot be the work's, so this part earns no speed points, and the instructor is asked "
                 "to look at this submission.";
    return r;
  }
  if (verification.value("status", "") == "tampered") {
    r.status = PerformanceStatus::failed;
    r.review = "the program's check of its timed calls was tampered with: " +
               verification.value("reason", std::string("no reason given"));
    r.feedback = text + ".\nThe timed calls could not be checked because " + r.review +
                 ". This part earns no speed points, and the instructor is asked to look at this submission.";
    return r;
  }
  if (verification.value("status", "") != "checked") {
    r.status = PerformanceStatus::not_measured;
    r.counted = false;
    r.feedback = text +
                 fmt::format(
                     ".\nThese {:g} points are not scored here: every timed call's output must be checked, "
                     "and ",
                     spec.points) +
                 verification.value("reason", std::string("the harness did not check them")) + ".";
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
  const toolchain::BuildResult built = build_harness_program(lab_, source, options_, runner_);
  if (!built.ok) throw std::runtime_error("the reference does not compile:\n" + built.compiler_output);
  const TimedRun t = run_timed(part, built.executable, "calibrate-" + part.name, false);
  const std::string label = find_case(part, "timed").label();
  if (!t.run.failure.empty()) throw std::runtime_error(timed_failure(t.run, label));
  if (!t.wrong.empty()) throw std::runtime_error("the reference failed the " + label + ": " + join(t.wrong));
  Calibration c;
  c.device = t.run.result.value("device", json::object()).value("name", std::string("this device"));
  c.case_label = label;
  const json& timing = t.run.result.at("timing");
  c.seconds = timing.value("median_s", 0.0);
  c.spread = timing.value("spread", 0.0);
  c.runs = timing.value("runs", 0);
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
