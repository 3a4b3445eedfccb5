// Implementation of performance.hpp.
#include "grade/performance.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "grade/case_runner.hpp"
#include "grade/dataset_cache.hpp"
#include "grade/harness_build.hpp"
#include "lab/performance_spec.hpp"
#include "toolchain/content_hash.hpp"

namespace gpulab::grade {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
constexpr double kReferenceCacheSeconds = 3600;  // a reference time is reused for an hour on the same device

json timing_request() { return {{"warmup", 3}, {"min_runs", 10}, {"max_runs", 100}, {"min_seconds", 0.3}}; }

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string format(const char* fmt, double a, double b = 0, double c = 0) {
  char buf[160];
  std::snprintf(buf, sizeof buf, fmt, a, b, c);
  return buf;
}

std::string format_time(double s) { return s >= 1e-3 ? format("%.3f ms", s * 1e3) : format("%.1f us", s * 1e6); }

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
}  // namespace

std::string describe_thresholds(const std::vector<ScorePoint>& points, const char* unit) {
  std::string s;
  for (const ScorePoint& p : points) {
    s += (s.empty() ? "" : ", ") + format("%g", p.x) + unit + " -> " + format("%.0f%%", p.fraction * 100);
  }
  return s + " (linear in between)";
}

PerformanceScorer::PerformanceScorer(const LabSpec& lab, const GradeOptions& options, fs::path work,
                                     const SubmissionRunner& runner)
    : lab_(lab), options_(options), work_(std::move(work)), runner_(runner) {}

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

double PerformanceScorer::reference_seconds(const PartSpec& part, const std::string& uuid, std::string& problem) {
  const fs::path source = toolchain::project_root() / "reference" / lab_.lab / (lab_.lab + ".cu");
  if (!fs::exists(source)) return 0;
  if (!reference_program_) {
    toolchain::BuildOptions b = harness_build_options(lab_, options_.backend, options_.use_cache, options_.cuda_arch);
    b.run_compiler = runner_.compile_runner(lab_);
    const toolchain::BuildResult built = toolchain::build_program(source, b);
    if (!built.ok) {
      problem = "the reference solution does not compile on this installation:\n" + built.compiler_output;
      reference_program_ = fs::path();
    } else {
      reference_program_ = built.executable;
    }
  }
  if (reference_program_->empty()) return 0;

  json sizes = part.performance->sizes;
  const fs::path cache = toolchain::cache_directory() / "reference-times" /
                         (toolchain::ContentHash()
                              .add(uuid)
                              .add(lab_.lab)
                              .add(lab_.version)
                              .add(reference_program_->string())
                              .add(part.name)
                              .add(sizes.dump())
                              .hex() +
                          ".json");
  const json cached = read_json_file(cache);
  if (cached.is_object() && now_seconds() - cached.value("measured_at", 0.0) < kReferenceCacheSeconds) {
    copy_bandwidth_ = cached.value("copy_bandwidth", 0.0);
    return cached.value("seconds", 0.0);
  }
  const DatasetCase& timed = find_case(part, "timed");
  const CaseRun run = run_harness_case(part, manifest(), timed, *reference_program_, work_ / "reference", runner_,
                                       {{"timing", timing_request()}, {"copy_bandwidth", true}});
  std::vector<std::string> wrong = run.failure.empty() ? compare_case_outputs(part, manifest(), timed, run.dir, "output_")
                                                       : std::vector<std::string>{run.failure};
  if (!wrong.empty()) {
    problem = "the reference solution failed the timed case on this device, so speed cannot be compared: " + join(wrong);
    return 0;
  }
  const double seconds = run.result.at("timing").value("median_s", 0.0);
  copy_bandwidth_ = run.result.value("copy_bandwidth_bytes_per_s", 0.0);
  write_json_file(cache, {{"seconds", seconds}, {"copy_bandwidth", copy_bandwidth_}, {"measured_at", now_seconds()},
                          {"device", run.result.value("device", json::object())}});
  return seconds;
}

double PerformanceScorer::copy_bandwidth(const PartSpec& part, const fs::path& program, const std::string& uuid) {
  const fs::path cache = toolchain::cache_directory() / "devices" / (toolchain::ContentHash().add(uuid).hex() + ".json");
  if (copy_bandwidth_ > 0) {
    write_json_file(cache, {{"copy_bandwidth", copy_bandwidth_}});
    return copy_bandwidth_;
  }
  const json cached = read_json_file(cache);
  if (cached.is_object() && cached.value("copy_bandwidth", 0.0) > 0) return copy_bandwidth_ = cached["copy_bandwidth"];
  // No reference run measured it: the harness measures it without calling the submission.
  const CaseRun run = run_harness_case(part, manifest(), find_case(part, "timed"), program, work_ / "copy-bandwidth",
                                       runner_, {{"probe_device", true}});
  copy_bandwidth_ = run.failure.empty() ? run.result.value("copy_bandwidth_bytes_per_s", 0.0) : 0.0;
  if (copy_bandwidth_ > 0) write_json_file(cache, {{"copy_bandwidth", copy_bandwidth_}});
  return copy_bandwidth_;
}

PerformanceResult PerformanceScorer::measure(const PartSpec& part, const fs::path& program, bool correct) {
  const PerformanceSpec& spec = *part.performance;
  PerformanceResult r;
  r.max_score = spec.points;
  r.counted = true;
  if (!correct) {
    r.status = "failed";
    r.feedback = "speed is scored only when every correctness case of this part passes: fix those first";
    return r;
  }
  const DatasetCase& timed = find_case(part, "timed");
  const DatasetCase& recheck = find_case(part, "recheck");
  r.case_label = timed.label();
  json fresh = json::object();
  std::vector<fs::path> fresh_files;
  for (const ParamSpec& p : part.params) {
    if (p.role != ParamRole::input) continue;
    fresh_files.push_back(fs::absolute(manifest().directory / recheck.file("input", p.name)->file));
    fresh[p.name] = fresh_files.back().string();
  }
  const CaseRun run = run_harness_case(part, manifest(), timed, program, work_ / "performance", runner_,
                                       {{"timing", timing_request()}, {"recheck", fresh}}, 0, {}, fresh_files);
  if (!run.failure.empty()) {
    r.status = "failed";
    r.feedback = "the " + timed.label() + " failed: " + run.failure;
    return r;
  }
  std::vector<std::string> wrong = harness_findings(run.result);
  for (const std::string& w : compare_case_outputs(part, manifest(), timed, run.dir, "output_")) {
    wrong.push_back("the " + timed.label() + ": " + w);
  }
  const std::vector<std::string> stale = compare_case_outputs(part, manifest(), recheck, run.dir, "recheck_");
  if (!stale.empty()) {
    wrong.push_back("after the timed runs your function was called once more, on fresh inputs in the same buffers, "
                    "and its result was wrong: does it keep results from an earlier call or skip work when called "
                    "again? " + join(stale));
  }
  if (!wrong.empty()) {
    r.status = "failed";
    r.feedback = join(wrong);
    return r;
  }

  const json& t = run.result.at("timing");
  r.seconds = t.value("median_s", 0.0);
  r.spread = t.value("spread", 0.0);
  r.runs = t.value("runs", 0);
  const json device = run.result.value("device", json::object());
  r.device = device.value("name", std::string("this device"));
  const std::string uuid = device.value("uuid", std::string()) + "/" + r.device;
  const double work = performance_work(spec, part);
  const bool bytes = spec.work == "bytes";
  r.rate_unit = bytes ? "GB/s" : "GFLOP/s";
  r.rate = r.seconds > 0 ? work / r.seconds / 1e9 : 0;

  std::string problem;
  r.reference_seconds = reference_seconds(part, uuid, problem);
  if (bytes) {
    r.copy_bandwidth = copy_bandwidth(part, program, uuid);
    if (r.copy_bandwidth > 0) r.bandwidth_fraction = r.rate * 1e9 / r.copy_bandwidth;
  }
  std::string text = "median " + format_time(r.seconds) + " over " + std::to_string(r.runs) + " runs (spread " +
                     format("%.1f%%", r.spread * 100) + ") on " + r.device + ", " + r.case_label + ": " +
                     format("%.1f ", r.rate) + r.rate_unit;
  if (r.copy_bandwidth > 0) {
    text += format(" = %.0f%% of this device's copy bandwidth (%.0f GB/s)", r.bandwidth_fraction * 100,
                   r.copy_bandwidth / 1e9);
  }
  double fraction = 0;
  if (r.reference_seconds > 0 && r.seconds > 0) {
    r.ratio = r.reference_seconds / r.seconds;
    fraction = PerformanceSpec::fraction_at(spec.thresholds, r.ratio);
    text += ".\nThe reference takes " + format_time(r.reference_seconds) + format(", so yours runs at %.2fx its speed. ", r.ratio) +
            "Score by speed relative to the reference: " + describe_thresholds(spec.thresholds, "x") + ".";
  } else if (bytes && !spec.bandwidth_thresholds.empty() && r.copy_bandwidth > 0 && problem.empty()) {
    fraction = PerformanceSpec::fraction_at(spec.bandwidth_thresholds, r.bandwidth_fraction);
    text += ".\nThe reference solution is not installed here (a student kit), so speed is scored by the fraction "
            "of copy bandwidth instead: " + describe_thresholds(spec.bandwidth_thresholds, "") + ".";
  } else {
    r.status = "not_measured";
    r.counted = false;
    r.feedback = text + ".\n" +
                 (problem.empty() ? "No reference solution is installed here to compare with, so these " +
                                        format("%g", spec.points) + " points are not scored in this run."
                                  : problem);
    return r;
  }
  r.status = "scored";
  r.score = fraction * spec.points;
  r.feedback = text + format(" You earn %.0f%% of the %g points.", fraction * 100, spec.points);
  return r;
}

Calibration PerformanceScorer::calibrate(const PartSpec& part) {
  const fs::path source = toolchain::project_root() / "reference" / lab_.lab / (lab_.lab + ".cu");
  if (!fs::exists(source)) throw std::runtime_error("calibrating needs the reference solution " + source.string());
  toolchain::BuildOptions b = harness_build_options(lab_, options_.backend, options_.use_cache, options_.cuda_arch);
  b.run_compiler = runner_.compile_runner(lab_);
  const toolchain::BuildResult built = toolchain::build_program(source, b);
  if (!built.ok) throw std::runtime_error("the reference does not compile:\n" + built.compiler_output);
  const DatasetCase& timed = find_case(part, "timed");
  const CaseRun run = run_harness_case(part, manifest(), timed, built.executable, work_ / ("calibrate-" + part.name),
                                       runner_, {{"timing", timing_request()}, {"copy_bandwidth", true}});
  std::vector<std::string> wrong = run.failure.empty() ? compare_case_outputs(part, manifest(), timed, run.dir, "output_")
                                                       : std::vector<std::string>{run.failure};
  if (!wrong.empty()) throw std::runtime_error("the reference failed the " + timed.label() + ": " + join(wrong));
  Calibration c;
  c.device = run.result.value("device", json::object()).value("name", std::string("this device"));
  c.case_label = timed.label();
  const json& t = run.result.at("timing");
  c.seconds = t.value("median_s", 0.0);
  c.spread = t.value("spread", 0.0);
  c.runs = t.value("runs", 0);
  const PerformanceSpec& spec = *part.performance;
  c.rate_unit = spec.work == "bytes" ? "GB/s" : "GFLOP/s";
  c.rate = c.seconds > 0 ? performance_work(spec, part) / c.seconds / 1e9 : 0;
  c.copy_bandwidth = run.result.value("copy_bandwidth_bytes_per_s", 0.0);
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
