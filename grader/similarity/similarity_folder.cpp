// write_similarity_folder and similarity_summary.
#include "similarity/similarity_folder.hpp"

#include <set>

#include "files/atomic_file.hpp"
#include "files/grader_error.hpp"
#include "files/utf8_text.hpp"
#include "similarity/matching_regions.hpp"
#include "similarity/similarity_csv.hpp"
#include "similarity/similarity_pages.hpp"

namespace gpulab::similarity {
namespace fs = std::filesystem;

nlohmann::json similarity_summary(const SimilarityReport& r, std::size_t pages) {
  const std::size_t flagged = flagged_pairs(r);
  nlohmann::json top = nlohmann::json::array();
  for (std::size_t i = 0; i < flagged && i < 50; ++i) {
    const PairScore& p = r.comparison.pairs[i];
    top.push_back({{"a", files::valid_utf8(r.documents[p.a].name)},
                   {"b", files::valid_utf8(r.documents[p.b].name)},
                   {"similarity", p.similarity},
                   {"page", i < pages ? pair_page_name(i) : ""}});
  }
  return {{"schema", "gpulab-similarity/1"},
          {"lab", r.lab},
          {"generated_at", r.generated_at},
          {"submissions", r.documents.size()},
          {"not_compared", r.not_compared.size()},
          {"pairs_sharing_code", r.comparison.pairs.size()},
          {"threshold", r.options.threshold},
          {"kgram", r.options.k},
          {"window", r.options.window},
          {"common_fraction", r.options.common_fraction},
          {"common_min", r.options.common_min},
          {"common_limit", r.comparison.common_limit},
          {"flagged", flagged},
          {"pages", pages},
          {"top", top}};
}

FolderOutcome write_similarity_folder(const fs::path& dir, const SimilarityReport& r) {
  FolderOutcome out;
  out.flagged = flagged_pairs(r);
  out.pages = std::min(out.flagged, r.options.max_pages);
  std::error_code ec;
  fs::create_directories(dir / "pairs", ec);
  if (ec) throw files::GraderError("cannot create the folder " + (dir / "pairs").string() + ": " + ec.message());

  std::set<std::string> written;
  for (std::size_t i = 0; i < out.pages; ++i) {
    const PairScore& p = r.comparison.pairs[i];
    const std::vector<Region> regions =
        matching_regions(r.documents[p.a].source, r.documents[p.b].source, r.comparison.excluded, r.options);
    files::write_file_atomically(dir / pair_page_name(i), pair_page(r, i, regions));
    written.insert(fs::path(pair_page_name(i)).filename().string());
  }
  for (const auto& e : fs::directory_iterator(dir / "pairs", ec)) {
    const std::string name = e.path().filename().string();
    if (name.starts_with("pair-") && name.ends_with(".html") && !written.count(name)) fs::remove(e.path(), ec);
  }
  files::write_file_atomically(dir / "similarity.csv", similarity_csv(r));
  files::write_file_atomically(dir / "index.html", index_page(r, out.pages));
  files::write_json_atomically(dir / "summary.json", similarity_summary(r, out.pages));
  return out;
}

}  // namespace gpulab::similarity
