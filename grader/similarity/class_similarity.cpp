// class_similarity: roster -> documents -> comparison.
#include "similarity/class_similarity.hpp"

#include <algorithm>

#include "batch/class_roster.hpp"
#include "batch/student_record.hpp"
#include "files/atomic_file.hpp"

namespace gpulab::similarity {
namespace fs = std::filesystem;

namespace {
std::string read_limited(const fs::path& file, const std::string& who, std::vector<std::string>& warnings) {
  std::string bytes = files::read_whole_file(file);
  if (bytes.size() > kMaxSourceBytes) {
    warnings.push_back(who + ": " + file.string() + " is " + std::to_string(bytes.size()) + " bytes; only its first " +
                       std::to_string(kMaxSourceBytes) + " were compared");
    bytes.resize(kMaxSourceBytes);
  }
  return bytes;
}
}  // namespace

SimilarityReport class_similarity(const std::string& lab, const fs::path& submissions, const fs::path& skeleton_dir,
                                  const SimilarityOptions& o) {
  check_options(o);
  SimilarityReport r;
  r.lab = lab;
  r.options = o;
  r.generated_at = batch::utc_now_iso8601();
  const batch::Roster roster = batch::discover_submissions(submissions, lab + ".cu");
  r.warnings = roster.warnings;
  for (const batch::Submission& s : roster.submissions) {
    if (s.source.empty()) {
      r.not_compared.push_back(s.student + ": " + s.problem);
      continue;
    }
    r.documents.push_back({s.student, read_limited(s.source, s.student, r.warnings)});
  }
  std::vector<std::string> skeleton_sources;
  if (fs::is_directory(skeleton_dir)) {
    std::vector<fs::path> found;
    for (const auto& e : fs::recursive_directory_iterator(skeleton_dir)) {
      const std::string ext = e.path().extension().string();
      if (e.is_regular_file() && (ext == ".cu" || ext == ".cuh" || ext == ".h")) found.push_back(e.path());
    }
    std::sort(found.begin(), found.end());
    for (const fs::path& f : found) {
      skeleton_sources.push_back(read_limited(f, "skeleton", r.warnings));
      r.skeleton_files.push_back(f.lexically_relative(skeleton_dir.parent_path().parent_path()).generic_string());
    }
  } else {
    r.warnings.push_back("no skeleton folder " + skeleton_dir.string() + ": code given to the class is not left out");
  }
  r.comparison = compare_class(r.documents, skeleton_sources, o);
  return r;
}

FolderOutcome write_class_similarity(const std::string& lab, const fs::path& submissions, const fs::path& skeleton_dir,
                                     const fs::path& out_dir, const SimilarityOptions& o) {
  return write_similarity_folder(out_dir, class_similarity(lab, submissions, skeleton_dir, o));
}

}  // namespace gpulab::similarity
