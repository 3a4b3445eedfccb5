// A made-up graded class for the report tests: four students on a two-part
// lab (one full marks, one with wrong answers and a time-out, one that does
// not compile, one without a file), optionally with GPU performance objects (one of them implausible).
#pragma once
#include <string>

#include "batch/class_results.hpp"

namespace gpulab_test {

inline gpulab::grade::CaseRecord made_up_case(
    const std::string& id, const std::string& label, bool passed, const std::string& feedback = "", bool hidden = false,
    gpulab::grade::FailureKind kind = gpulab::grade::FailureKind::wrong_answer) {
  return {id,
          label,
          "tiny",
          hidden,
          passed,
          passed ? 25.0 : 0.0,
          25.0,
          0.1,
          feedback,
          {},
          passed ? gpulab::grade::FailureKind::none : kind};
}

inline gpulab::grade::PartRecord made_up_part(const std::string& name, double score,
                                              std::vector<gpulab::grade::CaseRecord> cases) {
  gpulab::grade::PartRecord p;
  p.name = name;
  p.signature = "void " + name + "(const int* in, int* out, int n)";
  p.score = score;
  p.max_score = 50;
  p.cases = std::move(cases);
  return p;
}

// A speed part as the cuda backend records it: scored unless `status` says otherwise.
inline gpulab::grade::PerformanceResult made_up_speed(
    double ratio, double seconds, double gbps, double score,
    gpulab::grade::PerformanceStatus status = gpulab::grade::PerformanceStatus::scored) {
  gpulab::grade::PerformanceResult r;
  r.status = status;
  r.counted = true;
  r.ratio = ratio;
  r.seconds = seconds;
  r.rate = gbps;
  r.rate_unit = "GB/s";
  r.score = score;
  r.max_score = 10;
  return r;
}

inline gpulab::batch::StudentEntry made_up_student(
    const std::string& name, gpulab::batch::GradingStatus status, double score,
    const std::vector<gpulab::grade::PartRecord>& parts,
    const std::vector<std::pair<gpulab::grade::FailureKind, std::string>>& classes) {
  gpulab::batch::StudentEntry e;
  e.record.student = name;
  e.record.status = status;
  e.record.score = score;
  e.record.max_score = 100;
  e.record.backend = "emu";
  e.record.failure_classes = classes;
  if (!classes.empty()) e.record.failure_class = classes.front().first;
  if (e.record.has_result()) {
    gpulab::grade::ResultsRecord r;
    r.lab = "scan";
    r.lab_version = "1";
    r.submission = name + "/scan.cu";
    r.backend = "emu";
    r.compiled = status == gpulab::batch::GradingStatus::graded;
    r.score = score;
    r.max_score = 100;
    r.parts = parts;
    e.result = r;
  }
  return e;
}

// with_performance: the cuda backend's per-part performance objects on the two graded students.
inline gpulab::batch::ClassResults made_up_class(bool with_performance) {
  using gpulab::batch::GradingStatus;
  using gpulab::grade::FailureKind;
  gpulab::batch::ClassResults c;
  c.lab = "scan";
  c.title = "Prefix sums";
  c.parts = {{"inclusive", 50}, {"exclusive", 50}};
  std::vector<gpulab::grade::PartRecord> full = {
      made_up_part("inclusive", 50.0,
                   {made_up_case("inclusive-tiny-1", "dataset 1 (n=1)", true),
                    made_up_case("inclusive-tiny-2", "dataset 2 (n=33)", true)}),
      made_up_part("exclusive", 50.0,
                   {made_up_case("exclusive-tiny-1", "dataset 1 (n=1)", true),
                    made_up_case("exclusive-tiny-2", "dataset 2 (n=33)", true)})};
  std::vector<gpulab::grade::PartRecord> half = {
      made_up_part(
          "inclusive", 25.0,
          {made_up_case("inclusive-tiny-1", "dataset 1 (n=1)", true),
           made_up_case("inclusive-tiny-2", "dataset 2 (n=33)", false, "out[32] = NaN, expected 1; 1 of 33 wrong")}),
      made_up_part("exclusive", 25.0,
                   {made_up_case("exclusive-tiny-1", "dataset 1 (n=1)", true),
                    made_up_case("exclusive-tiny-2", "dataset 2 (n=33)", false, "timed out after 30 s", false,
                                 FailureKind::timeout)})};
  if (with_performance) {
    full[0].performance = made_up_speed(1.25, 0.0008, 1523.5, 10);
    full[1].performance = made_up_speed(0.9, 0.0011, 1101.0, 8);
    half[0].performance = made_up_speed(0.31, 0.0032, 380.2, 2);
    // Faster than the device can go: no points, flagged for review, and no ratio in the statistics.
    half[1].performance = made_up_speed(0.0, 0, 0, 0, gpulab::grade::PerformanceStatus::implausible);
    half[1].performance->review = "the fastest timed call moved 9000 GB/s, 300% of the copy bandwidth <sic>";
  }
  c.students.push_back(made_up_student("ada", GradingStatus::graded, 100, full, {}));
  c.students.push_back(
      made_up_student("bob, jr.", GradingStatus::graded, 50, half,
                      {{FailureKind::timeout, "exclusive: dataset 2 (n=33): timed out after 30 s"},
                       {FailureKind::wrong_answer, "inclusive: dataset 2 (n=33): out[32] = NaN, expected 1"}}));
  c.students.push_back(made_up_student("<carol>", GradingStatus::compile_error, 0, {},
                                       {{FailureKind::compile_error, "carol.cu:3:1: error: expected ';' <here>"}}));
  c.students.push_back(made_up_student("dave", GradingStatus::no_submission, 0, {},
                                       {{FailureKind::no_submission, "no .cu file was handed in"}}));
  return c;
}

}  // namespace gpulab_test
