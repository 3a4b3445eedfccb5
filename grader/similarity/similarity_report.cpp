// flagged_pairs.
#include "similarity/similarity_report.hpp"

namespace gpulab::similarity {

std::size_t flagged_pairs(const SimilarityReport& r) {
  std::size_t n = 0;
  while (n < r.comparison.pairs.size() && r.comparison.pairs[n].similarity >= r.options.threshold) ++n;
  return n;
}

}  // namespace gpulab::similarity
