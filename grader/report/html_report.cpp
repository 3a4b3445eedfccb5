// html_report: statistics from class_statistics, charts from svg_charts.
#include "html_report.hpp"

#include <cmath>

#include <fmt/format.h>

#include "batch/failure_class.hpp"
#include "class_statistics.hpp"
#include "report/late_section.hpp"
#include "report/review_flags.hpp"
#include "report/similarity_section.hpp"
#include "svg_charts.hpp"

namespace gpulab::report {
using nlohmann::json;

namespace {
std::string num(double x) { return fmt::format("{:g}", x); }
std::string fixed(double x, int decimals) { return fmt::format("{:.{}f}", x, decimals); }
std::string pts(double x) { return num(std::round(x * 100) / 100); }
std::string pct(double part, double whole) { return whole > 0 ? fixed(100.0 * part / whole, 0) + "%" : "-"; }
std::string shorten(const std::string& text, size_t limit = 300) {
  return text.size() <= limit ? text : text.substr(0, limit) + " ...";
}

const char* kStyle = R"css(
body { font-family: "DejaVu Sans", Arial, sans-serif; margin: 24px; color: #1d2733; background: #ffffff; }
h1 { font-size: 22px; margin-bottom: 4px; }
h2 { font-size: 17px; margin-top: 28px; border-bottom: 2px solid #3b6ea5; padding-bottom: 3px; }
h3 { font-size: 15px; margin: 16px 0 4px; }
.sub { color: #5a6572; font-size: 13px; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 14px 0; }
.card { background: #eef3f9; border-radius: 6px; padding: 10px 14px; min-width: 110px; }
.card b { display: block; font-size: 20px; color: #1f4f82; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0; }
th, td { border-bottom: 1px solid #dde3ea; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f3f6f9; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.bar { background: #e4e9ef; width: 160px; height: 12px; border-radius: 3px; }
.bar span { display: block; height: 12px; border-radius: 3px; background: #3b8c5a; }
.bar span.low { background: #c0504d; }
.bar span.mid { background: #d99a29; }
.msg { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; white-space: pre-wrap; color: #44505c; }
.review { color: #9a5b00; font-weight: 600; } tr.review td { background: #fff6e5; }
.note { color: #5a6572; font-style: italic; }
.status-graded { color: #1d2733; } .status-compile_error, .status-grader_error, .status-missing { color: #b0302c; }
)css";

std::string pass_bar(int passed, int attempted) {
  const double f = attempted ? static_cast<double>(passed) / attempted : 0;
  const char* cls = f < 0.5 ? "low" : f < 0.8 ? "mid" : "";
  return "<div class=\"bar\"><span class=\"" + std::string(cls) + "\" style=\"width:" + fixed(100 * f, 1) +
         "%\"></span></div>";
}

std::string overview(const batch::ClassResults& c, const ClassStatistics& s) {
  std::string h = "<div class=\"cards\">";
  auto card = [&](const std::string& value, const std::string& what) {
    h += "<div class=\"card\"><b>" + html_escape(value) + "</b>" + html_escape(what) + "</div>";
  };
  card(std::to_string(s.students), "submissions");
  card(pts(s.mean) + " / " + pts(s.max_total), "mean score");
  card(pts(s.median), "median score");
  card(pct(static_cast<double>(s.full_marks), static_cast<double>(s.scored)), "full marks");
  card(std::to_string(s.compile_errors), "do not compile");
  if (s.no_submission) card(std::to_string(s.no_submission), "no file to grade");
  if (s.grader_errors) card(std::to_string(s.grader_errors), "grader errors");
  if (s.missing) card(std::to_string(s.missing), "not graded yet");
  h += "</div>";
  if (!c.parts.empty()) {
    h += "<table><tr><th>part</th><th>points</th><th>mean</th></tr>";
    for (size_t i = 0; i < c.parts.size(); ++i) {
      h += "<tr><td>" + html_escape(c.parts[i].name) + "</td><td class=\"n\">" + pts(c.parts[i].points) +
           "</td><td class=\"n\">" + pts(s.part_means[i]) + "</td></tr>";
    }
    h += "</table>";
  }
  return h;
}

std::string distribution(const ClassStatistics& s) {
  std::vector<Bar> bars;
  for (int i = 0; i < 10; ++i) {
    const std::string label = i < 9 ? std::to_string(i * 10) + "-" + std::to_string(i * 10 + 9) : "90-100";
    bars.push_back({label, static_cast<double>(s.histogram[i]), i >= 9 ? "#3b8c5a" : "#3b6ea5"});
  }
  return "<h2>Score distribution</h2><p class=\"sub\">Students per band of the total score, in percent of " +
         pts(s.max_total) + " points (" + std::to_string(s.scored) +
         " scored; a submission that does not compile or has no file counts as 0).</p>" +
         bar_chart_svg(bars, "score distribution");
}

std::string case_rates(const ClassStatistics& s) {
  std::string h = "<h2>Pass rate per test case</h2>";
  if (s.cases.empty()) return h + "<p class=\"note\">No submission compiled, so no case ran.</p>";
  h += "<p class=\"sub\">Over the submissions that compiled.</p>"
       "<table><tr><th>part</th><th>case</th><th>family</th><th>passed</th><th></th></tr>";
  for (const CaseStat& c : s.cases) {
    h += "<tr><td>" + html_escape(c.part) + "</td><td>" + html_escape(c.label) + "</td><td>" + html_escape(c.family) +
         "</td><td class=\"n\">" + std::to_string(c.passed) + " / " + std::to_string(c.attempted) + " (" +
         pct(c.passed, c.attempted) + ")</td><td>" + pass_bar(c.passed, c.attempted) + "</td></tr>";
  }
  return h + "</table>";
}

std::string performance(const ClassStatistics& s) {
  std::string h =
      "<h2>Performance ratios</h2><p class=\"sub\">Reference time divided by the submission's time on the "
      "same GPU (1 = as fast as the reference; higher is faster).</p>";
  for (const PerformanceStat& p : s.performance) {
    h += "<h3>part " + html_escape(p.part) + "</h3>";
    if (p.ratios.empty()) {
      h += "<p class=\"note\">not measured (emulator)</p>";
      continue;
    }
    h += "<p>" + std::to_string(p.ratios.size()) + " measured: min " + fixed(p.min, 2) + ", median " +
         fixed(p.median, 2) + ", max " + fixed(p.max, 2) + "</p>";
    const double edges[] = {0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5};
    std::vector<Bar> bars;
    for (size_t k = 0; k < 7; ++k) {
      const double lo = edges[k], hi = k + 1 < 7 ? edges[k + 1] : 1e300;
      int count = 0;
      for (const auto& [student, r] : p.ratios) count += r >= lo && r < hi;
      const std::string label = k + 1 < 7 ? num(lo) + "-" + num(hi) : ">= " + num(lo);
      bars.push_back({label, static_cast<double>(count), lo >= 1.0 ? "#3b8c5a" : "#3b6ea5"});
    }
    h += bar_chart_svg(bars, "performance ratios of part " + p.part, 560, 200);
    h += "<table><tr><th>student</th><th>ratio</th>" +
         (p.throughput_unit.empty() ? std::string() : "<th>" + html_escape(p.throughput_unit) + "</th>") + "</tr>";
    for (size_t i = p.ratios.size(); i-- > 0;) {
      h += "<tr><td>" + html_escape(p.ratios[i].first) + "</td><td class=\"n\">" + fixed(p.ratios[i].second, 2) +
           "</td>" + (p.throughput_unit.empty() ? "" : "<td class=\"n\">" + fixed(p.throughputs[i], 1) + "</td>") +
           "</tr>";
    }
    h += "</table>";
  }
  return h;
}

// Submissions the grader asks the instructor to look at: listed before anything else is read.
std::string for_review(const std::vector<ReviewFlag>& flags) {
  if (flags.empty()) return "";
  std::string h =
      "<h2>For review</h2><p class=\"sub\">Speeds no code can reach on this device: these parts earned no "
      "speed points, and the submission should be looked at by hand (a result kept from elsewhere, or "
      "tampered timing).</p><table><tr><th>student</th><th>part</th><th>why</th></tr>";
  for (const ReviewFlag& f : flags) {
    h += "<tr class=\"review\"><td>" + html_escape(f.student) + "</td><td>" + html_escape(f.part) +
         "</td><td><div class=\"msg\">" + html_escape(f.reason) + "</div></td></tr>";
  }
  return h + "</table>";
}

std::string failures(const ClassStatistics& s) {
  std::string h = "<h2>Most common failures</h2>";
  if (s.failures.empty()) return h + "<p class=\"note\">No failures: every submission passed every case.</p>";
  h += "<p class=\"sub\">Submissions with at least one case failing this way, and up to three examples.</p>"
       "<table><tr><th>failure</th><th>submissions</th><th>examples</th></tr>";
  for (const FailureStat& f : s.failures) {
    std::string ex;
    for (const auto& [student, message] : f.examples) {
      ex += "<div class=\"msg\"><b>" + html_escape(student) + "</b>: " + html_escape(shorten(message)) + "</div>";
    }
    h += "<tr><td>" + html_escape(f.title) + "</td><td class=\"n\">" + std::to_string(f.submissions) + " (" +
         pct(f.submissions, static_cast<double>(s.students)) + ")</td><td>" + ex + "</td></tr>";
  }
  return h + "</table>";
}

std::string students(const batch::ClassResults& c) {
  std::string h = "<h2>Students</h2><table><tr><th>student</th>";
  for (const batch::PartColumn& p : c.parts) h += "<th>" + html_escape(p.name) + "</th>";
  h += "<th>total</th><th>status</th><th>failure</th><th>review</th></tr>";
  for (const batch::StudentEntry& e : c.students) {
    const batch::StudentRecord& r = e.record;
    const bool has_file = e.result.has_value();
    h += "<tr><td>" +
         (has_file ? "<a href=\"" + html_escape(r.student) + ".json\">" + html_escape(r.student) + "</a>"
                   : html_escape(r.student)) +
         "</td>";
    for (const batch::PartColumn& p : c.parts) {
      std::string cell = "-";
      if (e.result)
        if (const grade::PartRecord* part = e.result->part(p.name)) cell = pts(part->score);
      h += "<td class=\"n\">" + cell + "</td>";
    }
    const bool scored = batch::is_scored(r.status);
    const std::string status = batch::to_string(r.status);
    h += "<td class=\"n\">" + (scored ? pts(r.score) : std::string("-")) + "</td><td class=\"status-" +
         html_escape(status) + "\">" + html_escape(status) + "</td><td>" +
         html_escape(r.failure_class == grade::FailureKind::none ? "" : batch::failure_class_title(r.failure_class)) +
         "</td><td class=\"review\">" +
         html_escape(e.result ? review_cell(review_flags(r.student, *e.result)) : std::string()) + "</td></tr>";
  }
  return h + "</table>";
}
}  // namespace

std::string html_report(const batch::ClassResults& c, const std::string& generated_at,
                        const std::optional<nlohmann::json>& similarity, const late::ClassLateness* late,
                        const ClassLeaderboard* leaderboard) {
  const ClassStatistics s = class_statistics(c);
  std::string backends;
  for (const batch::StudentEntry& e : c.students)
    if (!e.record.backend.empty() && backends.find(e.record.backend) == std::string::npos)
      backends += (backends.empty() ? "" : ", ") + e.record.backend;
  std::string h =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
      "img-src data:\"><title>gpulab " +
      html_escape(c.lab) + ": class report</title><style>" + kStyle + "</style></head><body>";
  h += "<h1>" + html_escape(c.title.empty() ? c.lab : c.title) + "</h1><p class=\"sub\">lab " + html_escape(c.lab) +
       " &middot; backend " + html_escape(backends.empty() ? "-" : backends) + " &middot; generated " +
       html_escape(generated_at) + " by gpulab</p>";
  h += overview(c, s) + for_review(review_flags(c)) + (similarity ? similarity_section(*similarity) : std::string()) +
       (late ? late_section(*late) : std::string()) + distribution(s) + case_rates(s) + performance(s) +
       (leaderboard ? leaderboard_section(*leaderboard) : std::string()) + failures(s) + students(c);
  h += "</body></html>\n";
  return h;
}

}  // namespace gpulab::report
