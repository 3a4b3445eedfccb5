// What batch grading did with one student's submission, in a word: the
// "status" of a batch record (student_record.hpp) and the gradebook's column.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace gpulab::batch {

enum class GradingStatus {
  missing,  // no record yet (a student of the plan not graded); never written to a record
  graded,
  compile_error,  // graded: the submission did not compile (0 points)
  no_submission,  // graded: no file to grade (0 points)
  grader_error,   // not graded: the grader failed; retried on the next run
};

NLOHMANN_JSON_SERIALIZE_ENUM(GradingStatus, {
                                                {GradingStatus::missing, "missing"},
                                                {GradingStatus::graded, "graded"},
                                                {GradingStatus::compile_error, "compile_error"},
                                                {GradingStatus::no_submission, "no_submission"},
                                                {GradingStatus::grader_error, "grader_error"},
                                            })

inline std::string to_string(GradingStatus s) { return nlohmann::json(s).get<std::string>(); }

// Has a score that counts (0 for a compile error or an empty hand-in), unlike a grader error or a missing record.
inline bool is_scored(GradingStatus s) {
  return s == GradingStatus::graded || s == GradingStatus::compile_error || s == GradingStatus::no_submission;
}
// Has a gpulab-results/1 file next to its record.
inline bool has_results_file(GradingStatus s) {
  return s == GradingStatus::graded || s == GradingStatus::compile_error;
}

}  // namespace gpulab::batch
