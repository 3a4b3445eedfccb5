// A made-up graded class for the report tests: four students on a two-part
// lab (one full marks, one with wrong answers and a time-out, one that does
// not compile, one without a file), optionally with GPU performance objects (one of them implausible).
#pragma once
#include <string>

#include "batch/class_results.hpp"

namespace gpulab_test {

inline nlohmann::json made_up_case(const std::string& id, const std::string& label, bool passed,
                                   const std::string& feedback = "", bool hidden = false) {
  return {{"id", id},         {"label", label},       {"family", "tiny"},  {"hidden", hidden},
          {"passed", passed}, {"score", passed ? 25.0 : 0.0}, {"max_score", 25.0}, {"seconds", 0.1},
          {"feedback", feedback}, {"diagnostics", nlohmann::json::array()}};
}

inline gpulab::batch::StudentEntry made_up_student(const std::string& name, const std::string& status, double score,
                                                   const nlohmann::json& parts,
                                                   const std::vector<std::pair<std::string, std::string>>& classes) {
  gpulab::batch::StudentEntry e;
  e.record.student = name;
  e.record.status = status;
  e.record.score = score;
  e.record.max_score = 100;
  e.record.backend = "emu";
  e.record.failure_classes = classes;
  if (!classes.empty()) e.record.failure_class = classes.front().first;
  if (status == "graded" || status == "compile_error") {
    e.result = nlohmann::json{{"schema", "gpulab-results/1"}, {"compiled", status == "graded"}, {"score", score},
                              {"max_score", 100}, {"parts", parts}};
  }
  return e;
}

// with_performance: the cuda backend's per-part performance objects on the two graded students.
inline gpulab::batch::ClassResults made_up_class(bool with_performance) {
  using nlohmann::json;
  gpulab::batch::ClassResults c;
  c.lab = "scan";
  c.title = "Prefix sums";
  c.parts = {{"inclusive", 50}, {"exclusive", 50}};
  json full = json::array({{{"name", "inclusive"}, {"score", 50.0},
                            {"cases", {made_up_case("inclusive-tiny-1", "dataset 1 (n=1)", true),
                                       made_up_case("inclusive-tiny-2", "dataset 2 (n=33)", true)}}},
                           {{"name", "exclusive"}, {"score", 50.0},
                            {"cases", {made_up_case("exclusive-tiny-1", "dataset 1 (n=1)", true),
                                       made_up_case("exclusive-tiny-2", "dataset 2 (n=33)", true)}}}});
  json half = json::array(
      {{{"name", "inclusive"}, {"score", 25.0},
        {"cases", {made_up_case("inclusive-tiny-1", "dataset 1 (n=1)", true),
                   made_up_case("inclusive-tiny-2", "dataset 2 (n=33)", false, "out[32] = NaN, expected 1; 1 of 33 wrong")}}},
       {{"name", "exclusive"}, {"score", 25.0},
        {"cases", {made_up_case("exclusive-tiny-1", "dataset 1 (n=1)", true),
                   made_up_case("exclusive-tiny-2", "dataset 2 (n=33)", false, "timed out after 30 s")}}}});
  if (with_performance) {
    full[0]["performance"] = {{"ratio", 1.25}, {"seconds", 0.0008}, {"gbps", 1523.5}, {"score", 10}};
    full[1]["performance"] = {{"ratio", 0.9}, {"seconds", 0.0011}, {"gbps", 1101.0}, {"score", 8}};
    half[0]["performance"] = {{"ratio", 0.31}, {"seconds", 0.0032}, {"gbps", 380.2}, {"score", 2}};
    // Faster than the device can go: no points, flagged for review, and no ratio in the statistics.
    half[1]["performance"] = {{"status", "implausible"}, {"ratio", 0.0}, {"score", 0},
                              {"review", "the fastest timed call moved 9000 GB/s, 300% of the copy bandwidth <sic>"}};
  }
  c.students.push_back(made_up_student("ada", "graded", 100, full, {}));
  c.students.push_back(made_up_student("bob, jr.", "graded", 50, half,
                                       {{"timeout", "exclusive: dataset 2 (n=33): timed out after 30 s"},
                                        {"wrong_answer", "inclusive: dataset 2 (n=33): out[32] = NaN, expected 1"}}));
  c.students.push_back(made_up_student("<carol>", "compile_error", 0, json::array(),
                                       {{"compile_error", "carol.cu:3:1: error: expected ';' <here>"}}));
  c.students.push_back(made_up_student("dave", "no_submission", 0, json::array(),
                                       {{"no_submission", "no .cu file was handed in"}}));
  return c;
}

}  // namespace gpulab_test
