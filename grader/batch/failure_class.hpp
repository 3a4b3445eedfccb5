// Sorting failures into a few classes an instructor can count ("12 students
// time out on the large cases"): one class per failed case, the failure kind
// the grader recorded with it (grade/failure_kind.hpp), and one per submission
// (its most frequent case class). The feedback's wording never decides.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "grade/failure_kind.hpp"
#include "grade/results_model.hpp"

namespace gpulab::batch {

using grade::FailureKind;

// "wrong answer", "timed out", ...
std::string failure_class_title(FailureKind kind);
// Every class, in the order ties are broken: compile_error, no_submission, grader_error,
// missing_function, timeout, resource_limit, crash, early_exit, cuda_error, no_kernel, out_of_bounds,
// input_modified, data_race, missing_output, wrong_answer, other, unknown.
const std::vector<FailureKind>& failure_class_order();

struct FailureSummary {
  FailureKind failure_class = FailureKind::none;  // none when every case passed
  std::string example;                            // "<part>: <label>: <first line of the feedback>"
  // Every class seen in this submission, in class order, each with its first example.
  std::vector<std::pair<FailureKind, std::string>> classes;
};

// Compile errors (from `compiled`), else the most frequent kind of the failed cases. A case read from a
// file written before cases carried their kind counts as unknown, with a note saying so.
FailureSummary summarize_failures(const grade::ResultsRecord& result);

}  // namespace gpulab::batch
