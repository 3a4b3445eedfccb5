// Where two submissions match, for the pair's page: each fingerprint the pair shares (skeleton and
// common fingerprints already left out) is a seed, grown in both directions while the normalised
// tokens stay equal; the longest runs are kept, never two overlapping on either side.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "similarity/similarity_options.hpp"

namespace gpulab::similarity {

struct Region {
  std::uint32_t a_begin, a_end;  // byte range in a's source
  std::uint32_t b_begin, b_end;  // byte range in b's source
  std::int32_t a_first_line, a_last_line;
  std::int32_t b_first_line, b_last_line;
  std::uint32_t tokens;  // length of the run in tokens
};

// Regions in the order they appear in a. Fingerprints in `excluded` (skeleton and common code) are
// not used as seeds.
std::vector<Region> matching_regions(const std::string& a, const std::string& b,
                                     const std::unordered_set<std::uint64_t>& excluded, const SimilarityOptions& o);

}  // namespace gpulab::similarity
