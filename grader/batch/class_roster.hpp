// Finding a class's submissions in a folder: one sub-folder (or one .cu file)
// per student, or Gradescope's "Export Submissions" layout (a folder per
// submission_NNNN and a submission_metadata.yml naming its submitters). For
// each submission: a file-name-safe student label, unique in the class, the
// .cu file to grade, a hash of everything the student handed in, and what
// tells when it was handed in (Gradescope's time, the newest file time).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "gradescope_metadata.hpp"

namespace gpulab::batch {

struct Submission {
  std::string student;                // label: used for DIR/<student>.json and the gradebook
  std::filesystem::path location;     // the student's folder (or their single .cu file)
  std::filesystem::path source;       // the .cu file to grade; empty when none could be chosen
  std::string problem;                // why no source was chosen, in words
  std::vector<Submitter> submitters;  // from Gradescope's metadata, else empty
  std::string submission_id;          // Gradescope's folder name (submission_NNNN), else empty
  std::string content_hash;           // sha256 over the relative paths and bytes of every file handed in
  std::string created_at;             // Gradescope's :created_at: as written, else empty
  std::string newest_file_time;       // UTC ISO 8601 ("...Z") of the newest file handed in; "" when none
};

struct Roster {
  std::filesystem::path root;  // the folder the submissions are in (the export's folder for Gradescope)
  bool gradescope_export = false;
  std::vector<Submission> submissions;  // sorted by student label
  std::vector<std::string> warnings;    // e.g. a folder the metadata does not mention
};

// `source_name` is the file the lab's skeleton is called (e.g. "reduction.cu"): preferred when a
// folder holds several .cu files. Throws std::runtime_error when `dir` is missing or holds nothing.
Roster discover_submissions(const std::filesystem::path& dir, const std::string& source_name);

// A label safe in file names and CSV: letters, digits and . _ @ + - kept, anything else '_'.
std::string safe_label(const std::string& text);

}  // namespace gpulab::batch
