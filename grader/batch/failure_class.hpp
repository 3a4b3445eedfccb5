// Sorting failures into a few classes an instructor can count ("12 students
// time out on the large cases"): one class per failed case, from the grader's
// feedback, and one per submission (its most frequent case class).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpulab::batch {

// Class ids, in the order ties are broken: compile_error, no_submission, grader_error,
// missing_function, timeout, crash, early_exit, cuda_error, no_kernel, out_of_bounds,
// input_modified, data_race, missing_output, wrong_answer, other.
std::string classify_case_feedback(const std::string& feedback);
std::string failure_class_title(const std::string& id);  // "wrong answer", "timed out", ...
const std::vector<std::string>& failure_class_order();

struct FailureSummary {
  std::string failure_class;  // "" when every case passed
  std::string example;        // "<part>: <label>: <first line of the feedback>"
  // Every class seen in this submission, in class order, each with its first example.
  std::vector<std::pair<std::string, std::string>> classes;
};

// From a "gpulab-results/1" result: compile errors, else the most frequent class of the failed cases.
FailureSummary summarize_failures(const nlohmann::json& result);

}  // namespace gpulab::batch
