// The similarity check of a class folder, as `gpulab similarity` and `gpulab batch` run it: the
// submissions found as batch finds them (one folder or .cu file per student, or Gradescope's export),
// the file batch would grade read from each, the lab's skeleton (every .cu, .cuh and .h file of
// skeletons/<lab>/) left out, and the similarity folder written.
#pragma once

#include <filesystem>
#include <string>

#include "similarity/similarity_folder.hpp"
#include "similarity/similarity_report.hpp"

namespace gpulab::similarity {

// Files larger than this are compared on their first kMaxSourceBytes bytes only (with a warning).
inline constexpr std::size_t kMaxSourceBytes = 1 << 20;

// Throws std::runtime_error (bad folder, no submissions) or files::GraderError (unreadable file).
SimilarityReport class_similarity(const std::string& lab, const std::filesystem::path& submissions,
                                  const std::filesystem::path& skeleton_dir, const SimilarityOptions& o);

// class_similarity, then write_similarity_folder(out_dir, ...).
FolderOutcome write_class_similarity(const std::string& lab, const std::filesystem::path& submissions,
                                     const std::filesystem::path& skeleton_dir, const std::filesystem::path& out_dir,
                                     const SimilarityOptions& o);

}  // namespace gpulab::similarity
