// What batch grading remembers about each student, in DIR/records/<student>.json
// next to the result DIR/<student>.json: the key that decides whether the
// submission must be graded again, the outcome in a word, the failure class,
// and where the time went. Schema "gpulab-batch-record/1".
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "batch/grading_status.hpp"
#include "grade/failure_kind.hpp"
#include "gradescope_metadata.hpp"

namespace gpulab::batch {

struct Timing {
  double compile_s = 0;  // both builds (plain and race-checking), in parallel with other submissions
  double run_s = 0;      // the submission's own processes, one per dataset case
  double compare_s = 0;  // the rest of grading: datasets, comparison, scoring
  double report_s = 0;   // writing the result and this record
  double total_s = 0;
};

struct StudentRecord {
  std::string student;
  std::string key;  // see submission_key(): content, lab version, backend, grader version, options
  GradingStatus status = GradingStatus::missing;
  std::string message;                                          // for no_submission and grader_error: why, in words
  grade::FailureKind failure_class = grade::FailureKind::none;  // none ("" in the file) when everything passed
  std::string failure_example;
  std::vector<std::pair<grade::FailureKind, std::string>> failure_classes;  // every class with an example
  std::string source;         // the graded file, relative to the submissions folder
  std::string submission_id;  // Gradescope's folder name
  std::vector<Submitter> submitters;
  std::string content_hash, lab, lab_version, backend, grader_version;
  std::string created_at;        // Gradescope's time of the submission, as written; "" outside Gradescope
  std::string newest_file_time;  // UTC ISO 8601 of the newest file handed in; "" when none
  double score = 0, max_score = 0;
  Timing timing;
  std::string graded_at;  // UTC, ISO 8601

  bool has_result() const { return has_results_file(status); }
};

nlohmann::json record_to_json(const StudentRecord& r);
StudentRecord record_from_json(const nlohmann::json& j, const std::string& origin);  // throws std::runtime_error

std::filesystem::path result_path(const std::filesystem::path& out_dir, const std::string& student);
std::filesystem::path record_path(const std::filesystem::path& out_dir, const std::string& student);
// Every record under DIR/records, sorted by student; a damaged record is an error naming it.
std::vector<StudentRecord> read_records(const std::filesystem::path& out_dir);
std::optional<StudentRecord> read_record(const std::filesystem::path& out_dir, const std::string& student);

std::string utc_now_iso8601();

}  // namespace gpulab::batch
