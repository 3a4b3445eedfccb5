// The similarity folder's offline HTML: index.html (the flagged pairs, ranked, the first 1,000 at
// most, each with a link to its page; the closest pairs below the threshold; what was left out and why; how to read a score) and
// one page per flagged pair: the two files side by side, each matching region highlighted in both and
// linked to its counterpart (click a region on one side to jump to it on the other). No scripts,
// nothing fetched: inline CSS only, and a Content-Security-Policy forbidding any load.
#pragma once

#include <string>
#include <vector>

#include "similarity/matching_regions.hpp"
#include "similarity/similarity_report.hpp"

namespace gpulab::similarity {

// The page of pair `rank` (0 = most similar) of r.comparison.pairs, given its regions.
std::string pair_page(const SimilarityReport& r, std::size_t rank, const std::vector<Region>& regions);
// `pages` pairs (the first ones) have a page, named by pair_page_name.
std::string index_page(const SimilarityReport& r, std::size_t pages);
std::string pair_page_name(std::size_t rank);  // "pairs/pair-0001.html"

}  // namespace gpulab::similarity
