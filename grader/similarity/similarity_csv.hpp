// DIR/similarity.csv: one row per pair of submissions that share at least one fingerprint (every pair
// not listed has similarity 0), columns exactly `a,b,similarity`, most similar first, similarity from 0
// to 1 with 4 decimals. RFC 4180 like gradebook.csv: CRLF line ends, fields quoted where needed,
// names made valid UTF-8.
#pragma once

#include <string>

#include "similarity/similarity_report.hpp"

namespace gpulab::similarity {

std::string similarity_csv(const SimilarityReport& r);

}  // namespace gpulab::similarity
