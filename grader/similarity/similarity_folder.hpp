// Writing a similarity folder from a report: DIR/similarity.csv, DIR/index.html,
// DIR/pairs/pair-NNNN.html (the flagged pairs, at most max_pages) and DIR/summary.json (what the batch
// report's similarity section shows: schema "gpulab-similarity/1"). Every file is written atomically;
// pair pages of an earlier run that this run does not write are removed.
#pragma once

#include <filesystem>

#include <nlohmann/json.hpp>

#include "similarity/similarity_report.hpp"

namespace gpulab::similarity {

struct FolderOutcome {
  std::size_t flagged = 0;  // pairs at or above the threshold
  std::size_t pages = 0;    // pair pages written
};

FolderOutcome write_similarity_folder(const std::filesystem::path& dir, const SimilarityReport& r);

// summary.json's content: the options, the counts and the flagged pairs (up to 50) with their pages.
nlohmann::json similarity_summary(const SimilarityReport& r, std::size_t pages);

}  // namespace gpulab::similarity
