// read_similarity_summary and similarity_section.
#include "similarity_section.hpp"

#include <cstdio>
#include <fmt/format.h>

#include "files/atomic_file.hpp"
#include "svg_charts.hpp"

namespace gpulab::report {
using nlohmann::json;

std::optional<json> read_similarity_summary(const std::filesystem::path& out_dir) {
  const std::filesystem::path file = out_dir / "similarity" / "summary.json";
  if (!std::filesystem::exists(file)) return std::nullopt;
  try {
    json j = json::parse(files::read_whole_file(file));
    if (j.value("schema", "") != "gpulab-similarity/1") throw std::runtime_error("not a gpulab-similarity/1 summary");
    return j;
  } catch (const std::exception& e) {
    return json{{"damaged", file.string() + ": " + e.what()}};
  }
}

std::string similarity_section(const json& s) {
  std::string h = "<h2>Similar submissions</h2>";
  if (s.contains("damaged")) {
    return h + "<p class=\"note\">The similarity summary could not be read (" + html_escape(s.value("damaged", "")) +
           "); run gpulab similarity again.</p>";
  }
  const double threshold = s.value("threshold", 0.0);
  h += "<p class=\"sub\">Code similarity of the submissions (" + std::to_string(s.value("submissions", 0)) +
       " compared, " + html_escape(s.value("generated_at", "")) +
       "), with comments, layout, names and literals set "
       "aside and the skeleton and the class's common code left out. A score is evidence for a person to review, "
       "not proof: read both files. <a href=\"similarity/index.html\">All pairs</a>, similarity/similarity.csv.</p>";
  const json top = s.value("top", json::array());
  if (top.empty()) {
    return h + "<p class=\"note\">No pair of submissions reaches the threshold " + fmt::format("{:.2f}", threshold) +
           ".</p>";
  }
  h += "<table><tr><th>a</th><th>b</th><th>similarity</th><th></th></tr>";
  for (const json& p : top) {
    const std::string page = p.value("page", "");
    h += "<tr><td>" + html_escape(p.value("a", "")) + "</td><td>" + html_escape(p.value("b", "")) +
         "</td><td class=\"n\">" + fmt::format("{:.2f}", p.value("similarity", 0.0)) + "</td><td>" +
         (page.empty() ? std::string("-") : "<a href=\"similarity/" + html_escape(page) + "\">side by side</a>") +
         "</td></tr>";
  }
  h += "</table>";
  const std::size_t flagged = s.value("flagged", std::size_t{0});
  if (flagged > top.size())
    h += "<p class=\"note\">and " + std::to_string(flagged - top.size()) +
         " more at or above the threshold: see similarity/index.html.</p>";
  return h;
}

}  // namespace gpulab::report
