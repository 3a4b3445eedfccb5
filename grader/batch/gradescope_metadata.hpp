// Reading the submission_metadata.yml of Gradescope's "Export Submissions"
// zip: a YAML map from each submission's folder (submission_NNNN) to its
// record, whose :submitters: list names the students (:name:, :email:, :sid:),
// and :created_at:, when Gradescope received it (for late submissions). The
// other fields (:score:, :history:, ...) are skipped.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace gpulab::batch {

struct Submitter {
  std::string name;
  std::string email;
  std::string sid;
};

struct GradescopeSubmission {
  std::vector<Submitter> submitters;
  std::string created_at;  // as written ("2026-11-20 10:11:12.000000000 -08:00"); "" when absent
};

// Folder name -> submitters and time. Throws std::runtime_error naming the file and line when the
// file cannot be read or is not the map of submissions Gradescope writes.
std::map<std::string, GradescopeSubmission> read_gradescope_submissions(const std::filesystem::path& yml);
std::map<std::string, GradescopeSubmission> parse_gradescope_submissions(const std::string& text,
                                                                         const std::string& origin);

// Folder name -> submitters. Throws std::runtime_error naming the file and line when the
// file cannot be read or is not the map of submissions Gradescope writes.
std::map<std::string, std::vector<Submitter>> read_gradescope_metadata(const std::filesystem::path& yml);
std::map<std::string, std::vector<Submitter>> parse_gradescope_metadata(const std::string& text,
                                                                        const std::string& origin);

}  // namespace gpulab::batch
