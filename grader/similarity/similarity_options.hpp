// The knobs of the similarity check, with the defaults `gpulab similarity` and `gpulab batch` use
// (chosen on the test corpus of tests/similarity/: docs/batch-grading.md#similarity).
#pragma once

#include <cstddef>
#include <string>

namespace gpulab::similarity {

struct SimilarityOptions {
  int k = 12;                    // tokens per k-gram: shorter common runs are ignored
  int window = 8;                // winnowing window: any common run of window + k - 1 tokens is found
  double common_fraction = 0.1;  // fingerprints held by more than this fraction of the class are ignored,
  std::size_t common_min = 10;   // ... and by more than this many submissions: a group that copies is never
                                 // common, and a small class keeps its fingerprints
  double threshold = 0.5;        // pairs at or above this similarity get a page
  std::size_t max_pages = 200;   // at most this many pair pages (the most similar pairs)
};

// Throws std::invalid_argument with a sentence naming the bad option.
void check_options(const SimilarityOptions& o);

}  // namespace gpulab::similarity
