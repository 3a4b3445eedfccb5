// Which file of a handed-in folder is the submission: the one rule that
// `gpulab grade FOLDER`, Gradescope's run_autograder and `gpulab batch` all
// follow. `<lab>.cu` if exactly one file has that name; else the only `.cu`
// file; anything else (none, several with the lab's name, several unnamed)
// is refused with the list of files, never guessed: grading the wrong one
// (a backup of the skeleton, say) would be a silent zero.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace gpulab::grade {

struct SubmissionSource {
  std::filesystem::path file;  // absolute or under the folder; empty when refused
  std::string problem;         // why no file was chosen, for the student
};

// Names skipped when looking through a submission (hidden files, macOS zip leftovers,
// Gradescope's metadata).
bool ignored_submission_name(const std::string& name);
// Every regular file under `folder` (not following links), as sorted relative paths.
std::vector<std::filesystem::path> submission_files(const std::filesystem::path& folder);
// Chooses among `files` (relative to `folder`) the one to grade as `source_name` (e.g. "scan.cu").
SubmissionSource choose_submission_source(const std::filesystem::path& folder,
                                          const std::vector<std::filesystem::path>& files,
                                          const std::string& source_name);

}  // namespace gpulab::grade
