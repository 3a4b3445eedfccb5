// Everything the similarity folder is written from: the class compared, the comparison, and what
// could not be compared. Built by class_similarity.hpp (or by a test from made-up documents).
#pragma once

#include <string>
#include <vector>

#include "similarity/class_comparison.hpp"

namespace gpulab::similarity {

struct SimilarityReport {
  std::string lab;
  std::string generated_at;  // UTC, ISO 8601
  SimilarityOptions options;
  std::vector<Document> documents;  // the submissions compared
  ClassComparison comparison;
  std::vector<std::string> skeleton_files;  // excluded as the lab's own code
  std::vector<std::string> not_compared;    // "student: why", e.g. no .cu file handed in
  std::vector<std::string> warnings;        // e.g. a file cut at the size limit
};

// Pairs at or above the threshold, most similar first (all of them; pages go to the first max_pages).
std::size_t flagged_pairs(const SimilarityReport& r);

}  // namespace gpulab::similarity
