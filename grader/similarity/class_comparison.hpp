// Comparing every submission of a class with every other, without looking at every pair: each
// submission's winnowed fingerprints go into one index (fingerprint -> submissions), and only the
// pairs that share a fingerprint are ever counted. Fingerprints of the lab's skeleton (any k-gram of
// it) and fingerprints held by more than a set fraction of the class (the lab's idioms; and by more
// than common_min submissions, so that a group copying from one another is not taken for an idiom)
// are left out before anything is counted.
//
// Similarity of a pair = 2 |F(a) ∩ F(b)| / (|F(a)| + |F(b)|) over the distinct fingerprints left, from
// 0 (nothing shared) to 1 (the same fingerprints).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "similarity/similarity_options.hpp"

namespace gpulab::similarity {

struct Document {
  std::string name;    // the student's label
  std::string source;  // the file's bytes (any bytes)
};

struct PairScore {
  std::uint32_t a = 0, b = 0;  // indices into the documents, a < b
  std::uint32_t shared = 0;    // distinct fingerprints both hold
  double similarity = 0;
};

struct ClassComparison {
  std::vector<std::size_t> fingerprints;       // per document: distinct fingerprints counted (after exclusions)
  std::vector<PairScore> pairs;                // every pair with similarity > 0, most similar first
  std::size_t skeleton_kgrams = 0;             // distinct k-grams of the skeleton
  std::size_t skeleton_excluded = 0;           // distinct class fingerprints dropped as skeleton code
  std::size_t common_excluded = 0;             // distinct class fingerprints dropped as common to the class
  std::size_t common_limit = 0;                // a fingerprint held by more submissions than this is common
  std::unordered_set<std::uint64_t> excluded;  // the class's fingerprints left out (skeleton and common)
};

// The fingerprints of one document, before exclusions: sorted distinct hashes.
std::vector<std::uint64_t> distinct_fingerprints(const std::string& source, const SimilarityOptions& o);

// Ties in similarity are ordered by the documents' names, so the result does not depend on thread timing.
ClassComparison compare_class(const std::vector<Document>& documents, const std::vector<std::string>& skeleton_sources,
                              const SimilarityOptions& o);

}  // namespace gpulab::similarity
