// index_page and pair_page.
#include "similarity/similarity_pages.hpp"

#include <algorithm>
#include <fmt/format.h>

#include "files/utf8_text.hpp"
#include "report/svg_charts.hpp"

namespace gpulab::similarity {
namespace {

constexpr std::size_t kMaxListed = 1000;  // flagged pairs listed on the index page at most

std::string esc(std::string_view text) { return report::html_escape(files::valid_utf8(text)); }
std::string score(double s) { return fmt::format("{:.2f}", s); }

const char* kHead =
    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">";

const char* kStyle = R"css(
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 24px; color: #1d2733; background: #ffffff; }
h1 { font-size: 21px; margin-bottom: 4px; } h2 { font-size: 16px; margin-top: 24px; }
.sub { color: #5a6572; font-size: 13px; } .note { color: #5a6572; font-style: italic; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
th, td { border-bottom: 1px solid #dde3ea; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f3f6f9; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
.sides { display: flex; gap: 12px; align-items: flex-start; }
.side { flex: 1 1 0; min-width: 0; border: 1px solid #dde3ea; border-radius: 4px; }
.side h2 { margin: 0; padding: 6px 10px; background: #f3f6f9; font-size: 14px; overflow-wrap: anywhere; }
pre { margin: 0; padding: 8px; font: 12px/1.45 "DejaVu Sans Mono", monospace; overflow-x: auto; }
.ln { color: #9aa4ae; user-select: none; }
a.m { color: inherit; text-decoration: none; border-radius: 2px; }
a.m:target { outline: 2px solid #c0504d; }
.m0 { background: #ffe9a8; } .m1 { background: #cfe8ff; } .m2 { background: #d8f3d2; }
.m3 { background: #f8d5e8; } .m4 { background: #e4dcfa; } .m5 { background: #ffd9bf; }
.bar { background: #e4e9ef; width: 120px; height: 10px; border-radius: 3px; }
.bar span { display: block; height: 10px; border-radius: 3px; background: #c0504d; }
)css";

// Text of one side, with a line number at the start of every line.
class SideWriter {
 public:
  std::string html;
  void text(std::string_view t) {
    std::size_t start = 0;
    while (start <= t.size()) {
      const std::size_t nl = t.find('\n', start);
      if (at_line_start_) {
        if (start == t.size()) break;  // no number for the empty "line" after the final line break
        html += fmt::format("<span class=\"ln\">{:>4}  </span>", line_++);
        at_line_start_ = false;
      }
      if (nl == std::string_view::npos) {
        html += esc(t.substr(start));
        break;
      }
      html += esc(t.substr(start, nl + 1 - start));
      at_line_start_ = true;
      start = nl + 1;
    }
  }

 private:
  int line_ = 1;
  bool at_line_start_ = true;
};

struct Span {
  std::uint32_t begin, end;
  std::size_t region;
};

std::string side(const std::string& source, std::vector<Span> spans, char self, char other) {
  std::sort(spans.begin(), spans.end(), [](const Span& x, const Span& y) { return x.begin < y.begin; });
  SideWriter w;
  std::size_t at = 0;
  for (const Span& s : spans) {
    if (s.begin < at || s.end > source.size()) continue;  // never happens: regions do not overlap on a side
    w.text(std::string_view(source).substr(at, s.begin - at));
    w.html += fmt::format("<a class=\"m m{}\" id=\"{}{}\" href=\"#{}{}\" title=\"region {}\">", s.region % 6, self,
                          s.region + 1, other, s.region + 1, s.region + 1);
    w.text(std::string_view(source).substr(s.begin, s.end - s.begin));
    w.html += "</a>";
    at = s.end;
  }
  w.text(std::string_view(source).substr(at));
  return w.html;
}

std::string parameters(const SimilarityReport& r) {
  const SimilarityOptions& o = r.options;
  return fmt::format(
      "<p class=\"sub\">k-grams of {} tokens, winnowing window {} (any common run of {} or more tokens is found); "
      "fingerprints of the skeleton and those held by more than {} submissions (the larger of {}% of the class and "
      "{}) left out.</p>",
      o.k, o.window, o.window + o.k - 1, r.comparison.common_limit, fmt::format("{:g}", o.common_fraction * 100),
      o.common_min);
}

}  // namespace

std::string pair_page_name(std::size_t rank) { return fmt::format("pairs/pair-{:04}.html", rank + 1); }

std::string pair_page(const SimilarityReport& r, std::size_t rank, const std::vector<Region>& regions) {
  const PairScore& p = r.comparison.pairs.at(rank);
  const Document &a = r.documents[p.a], &b = r.documents[p.b];
  std::string h = kHead;
  h += "<title>" + esc(a.name) + " and " + esc(b.name) + ": similarity " + score(p.similarity) + "</title><style>" +
       kStyle + "</style></head><body>";
  h += "<p class=\"sub\"><a href=\"../index.html\">&larr; all pairs</a> &middot; lab " + esc(r.lab) +
       " &middot; pair " + std::to_string(rank + 1) + " of " + std::to_string(r.comparison.pairs.size()) + "</p>";
  h += "<h1>" + esc(a.name) + " &harr; " + esc(b.name) + ": similarity " + score(p.similarity) + "</h1>";
  h += fmt::format(
      "<p class=\"sub\">{} fingerprints in common; {} has {}, {} has {} (after leaving out the skeleton "
      "and the class's common code). Matching regions are highlighted in the same colour on both sides; "
      "click one to jump to its counterpart. Identifiers and literals may differ inside a region: they "
      "are compared as placeholders.</p>",
      p.shared, esc(a.name), r.comparison.fingerprints[p.a], esc(b.name), r.comparison.fingerprints[p.b]);
  if (regions.empty()) {
    h += "<p class=\"note\">No region to highlight.</p>";
  } else {
    h += "<table><tr><th>region</th><th>" + esc(a.name) + "</th><th>" + esc(b.name) + "</th><th>tokens</th></tr>";
    for (std::size_t i = 0; i < regions.size(); ++i) {
      const Region& g = regions[i];
      h += fmt::format(
          "<tr><td><span class=\"m{}\">&nbsp;{}&nbsp;</span></td><td><a href=\"#a{}\">lines {}&ndash;{}"
          "</a></td><td><a href=\"#b{}\">lines {}&ndash;{}</a></td><td class=\"n\">{}</td></tr>",
          i % 6, i + 1, i + 1, g.a_first_line, g.a_last_line, i + 1, g.b_first_line, g.b_last_line, g.tokens);
    }
    h += "</table>";
  }
  std::vector<Span> in_a, in_b;
  for (std::size_t i = 0; i < regions.size(); ++i) {
    in_a.push_back({regions[i].a_begin, regions[i].a_end, i});
    in_b.push_back({regions[i].b_begin, regions[i].b_end, i});
  }
  h += "<div class=\"sides\"><div class=\"side\"><h2>" + esc(a.name) + "</h2><pre>" + side(a.source, in_a, 'a', 'b') +
       "</pre></div><div class=\"side\"><h2>" + esc(b.name) + "</h2><pre>" + side(b.source, in_b, 'b', 'a') +
       "</pre></div></div>";
  return h + "</body></html>\n";
}

std::string index_page(const SimilarityReport& r, std::size_t pages) {
  const std::size_t flagged = flagged_pairs(r);
  const auto& pairs = r.comparison.pairs;
  std::string h = kHead;
  h += "<title>gpulab " + esc(r.lab) + ": similarity</title><style>" + kStyle + "</style></head><body>";
  h += "<h1>Similarity: lab " + esc(r.lab) + "</h1><p class=\"sub\">" + std::to_string(r.documents.size()) +
       " submissions compared &middot; " + std::to_string(pairs.size()) + " pairs share code &middot; " +
       std::to_string(flagged) + " at or above the threshold " + score(r.options.threshold) + " &middot; generated " +
       esc(r.generated_at) + " by gpulab</p>";
  h += parameters(r);
  h += "<p>A score is <b>evidence for a person to review, not proof</b>. It measures how much of two files' code "
       "(after comments, layout, names and literals are set aside) is the same sequence of tokens. Independent "
       "solutions of a small kernel written from the same lecture can look alike; code given to the whole class "
       "and idioms most students use are left out, but not every shared habit is. Read both files before drawing "
       "any conclusion. Every pair not listed in similarity.csv shares no fingerprint.</p>";
  h += "<h2>Pairs at or above the threshold</h2>";
  auto row = [&](std::size_t i, bool linked) {
    const PairScore& p = pairs[i];
    const std::string s = score(p.similarity);
    return "<tr><td class=\"n\">" + std::to_string(i + 1) + "</td><td>" + esc(r.documents[p.a].name) + "</td><td>" +
           esc(r.documents[p.b].name) + "</td><td class=\"n\">" + s +
           "</td><td><div class=\"bar\"><span style=\"width:" + fmt::format("{:.0f}", p.similarity * 100) +
           "%\"></span></div></td><td class=\"n\">" + std::to_string(p.shared) + "</td><td>" +
           (linked ? "<a href=\"" + pair_page_name(i) + "\">side by side</a>" : std::string("-")) + "</td></tr>";
  };
  const std::string head =
      "<table><tr><th>#</th><th>a</th><th>b</th><th>similarity</th><th></th><th>fingerprints in common</th><th>"
      "</th></tr>";
  if (flagged == 0) {
    h += "<p class=\"note\">" +
         std::string(r.documents.size() < 2 ? "Fewer than two submissions: nothing to compare."
                                            : "No pair reaches the threshold.") +
         "</p>";
  } else {
    // The page stays readable for a class of thousands: the rest of the flagged pairs are in the CSV.
    const std::size_t listed = std::min(flagged, std::max(pages, kMaxListed));
    h += head;
    for (std::size_t i = 0; i < listed; ++i) h += row(i, i < pages);
    h += "</table>";
    if (pages < flagged)
      h += "<p class=\"note\">" + std::to_string(flagged - pages) +
           " pairs above the threshold have no page (--max-pages " + std::to_string(r.options.max_pages) +
           "); all are in similarity.csv" +
           (listed < flagged ? ", and the " + std::to_string(flagged - listed) + " after the first " +
                                   std::to_string(listed) + " are listed there only"
                             : std::string()) +
           ".</p>";
  }
  const std::size_t below = std::min<std::size_t>(pairs.size() - flagged, 20);
  if (below > 0) {
    h += "<h2>The closest pairs below the threshold</h2>" + head;
    for (std::size_t i = flagged; i < flagged + below; ++i) h += row(i, false);
    h += "</table>";
  }
  h += "<h2>Left out</h2><ul>";
  h += "<li>Skeleton: " + (r.skeleton_files.empty() ? std::string("none found") : esc([&] {
         std::string s;
         for (const std::string& f : r.skeleton_files) s += (s.empty() ? "" : ", ") + f;
         return s;
       }())) +
       " (" + std::to_string(r.comparison.skeleton_excluded) + " fingerprints of the class are skeleton code)</li>";
  h += "<li>Common to the class: " + std::to_string(r.comparison.common_excluded) + " fingerprints held by more than " +
       std::to_string(r.comparison.common_limit) + " submissions</li>";
  for (const std::string& s : r.not_compared) h += "<li>Not compared: " + esc(s) + "</li>";
  for (const std::string& s : r.warnings) h += "<li>Warning: " + esc(s) + "</li>";
  h += "</ul><p class=\"sub\">Also in this folder: similarity.csv (every pair that shares code: a,b,similarity).</p>";
  return h + "</body></html>\n";
}

}  // namespace gpulab::similarity
