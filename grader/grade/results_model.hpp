// The "gpulab-results/1" file (docs/results-format.md) as types: what
// `gpulab grade --format json` and `gpulab batch` write, and what every reader
// of such a file (batch's failure classes, the class reports, the gradebook)
// gets back. Writing and reading go through the same structs, so a renamed or
// mistyped key is an error naming the file and the key, never a silent 0.
#pragma once
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "grade/failure_kind.hpp"
#include "grade/grading.hpp"
#include "grade/performance_status.hpp"

namespace gpulab::grade {

inline constexpr const char* kResultsSchema = "gpulab-results/1";

// A results file that is not gpulab-results/1 as this grader reads it: "<file>: <json path>: <problem>".
class ResultsFormatError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct CaseRecord {
  std::string id, label, family;
  bool hidden = false;
  bool passed = false;
  double score = 0, max_score = 0, seconds = 0;
  std::string feedback;
  std::vector<std::string> diagnostics;
  // none when passed; unknown when read from a file written before cases carried a kind
  FailureKind failure_kind = FailureKind::unknown;

  bool operator==(const CaseRecord&) const = default;
};

struct SanitizerRecord {
  std::string case_label;
  std::vector<std::string> findings;

  bool operator==(const SanitizerRecord&) const = default;
};

struct PartRecord {
  std::string name, signature;
  double score = 0, max_score = 0;
  std::vector<CaseRecord> cases;
  std::optional<PerformanceResult> performance;
  std::optional<SanitizerRecord> sanitizer;
  // Written by profile_json and the --counters command's own format: kept as they are.
  std::optional<nlohmann::json> profile, counters;

  bool operator==(const PartRecord&) const = default;
};

struct ResultsRecord {
  std::string lab, lab_version, submission, backend;
  bool compiled = false;
  std::string compile_output, not_graded;
  double score = 0, max_score = 0, seconds = 0, compile_seconds = 0;
  std::string performance_note, isolation;
  std::vector<PartRecord> parts;
  std::vector<ReviewNote> review;  // absent in older files: none
  std::vector<AuditNote> audit;    // absent in older files: none

  const PartRecord* part(const std::string& name) const;  // null when the file has no such part
  bool operator==(const ResultsRecord&) const = default;
};

// The file's content for a grading (what detailed_results writes).
ResultsRecord results_record(const GradeResult& g);

nlohmann::json to_json(const ResultsRecord& r);
// Throws ResultsFormatError naming `origin` (the file) and the JSON path of a missing or mistyped key.
ResultsRecord results_from_json(const nlohmann::json& j, const std::string& origin);
// Reads and parses `file`; ResultsFormatError when it cannot be read or parsed or is not gpulab-results/1.
ResultsRecord read_results_file(const std::filesystem::path& file);

}  // namespace gpulab::grade
