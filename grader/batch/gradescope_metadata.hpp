// Reading the submission_metadata.yml of Gradescope's "Export Submissions"
// zip: a YAML map from each submission's folder (submission_NNNN) to its
// record, whose :submitters: list names the students (:name:, :email:, :sid:).
// Only that part is read; the other fields (:created_at:, :score:, :history:)
// are skipped.
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

// Folder name -> submitters. Throws std::runtime_error naming the file and line when the
// file cannot be read or is not the map of submissions Gradescope writes.
std::map<std::string, std::vector<Submitter>> read_gradescope_metadata(const std::filesystem::path& yml);
std::map<std::string, std::vector<Submitter>> parse_gradescope_metadata(const std::string& text,
                                                                        const std::string& origin);

}  // namespace gpulab::batch
