// Implementation of performance.hpp: a part's speed scored from the runs (performance_runs.cpp), and
// the reference's calibration.
#include "grade/performance.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "grade/case_runner.hpp"
#include "grade/plausibility.hpp"
#include "lab/performance_spec.hpp"
#include "lab/size_expression.hpp"
#include "files/utf8_text.hpp"

namespace gpulab::grade {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
std::string format_time(double s) {
  return s >= 1e-3 ? fmt::format("{:.3f} ms", s * 1e3) : fmt::format("{:.1f} us", s * 1e6);
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
    r.feedback =
        t.run.failure.empty() ? fmt::format("{}", fmt::join(t.wrong, "\n")) : timed_failure(t.run, r.case_label);
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
  if (!t.wrong.empty())
    throw std::runtime_error("the reference failed the " + label + ": " + fmt::format("{}", fmt::join(t.wrong, "\n")));
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
