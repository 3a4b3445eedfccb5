// similarity_csv.
#include "similarity/similarity_csv.hpp"

#include <fmt/format.h>

#include "files/utf8_text.hpp"
#include "report/gradebook_csv.hpp"

namespace gpulab::similarity {

std::string similarity_csv(const SimilarityReport& r) {
  std::string s = "a,b,similarity\r\n";
  for (const PairScore& p : r.comparison.pairs) {
    s += report::csv_field(files::valid_utf8(r.documents[p.a].name)) + "," +
         report::csv_field(files::valid_utf8(r.documents[p.b].name)) + "," + fmt::format("{:.4f}", p.similarity) +
         "\r\n";
  }
  return s;
}

}  // namespace gpulab::similarity
