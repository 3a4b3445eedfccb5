// late_section.
#include "late_section.hpp"

#include <cmath>

#include <fmt/format.h>

#include "svg_charts.hpp"

namespace gpulab::report {

namespace {
std::string pts(double x) { return fmt::format("{:g}", std::round(x * 100.0) / 100.0 + 0.0); }
std::string maybe(const std::optional<double>& x) { return x ? pts(*x) : std::string("-"); }
}  // namespace

std::string late_section(const late::ClassLateness& l) {
  std::string h = "<h2>Late submissions</h2><p class=\"sub\">" +
                  html_escape(late::policy_summary(l.course, l.deadline)) +
                  " Course file: " + html_escape(l.course.origin) + ".</p>";
  for (const std::string& w : l.warnings) h += "<p class=\"review\">" + html_escape(w) + "</p>";
  size_t on_time = 0, grace = 0;
  std::string rows;
  for (const auto& [student, r] : l.rows) {
    const late::Lateness& x = r.lateness;
    if (x.status == late::kOnTime) {
      ++on_time;
      continue;
    }
    if (x.status == late::kWithinGrace) {
      ++grace;
      continue;
    }
    rows += "<tr><td>" + html_escape(student) + "</td><td>" +
            html_escape(r.submitted_at.empty() ? "-" : r.submitted_at) + "</td><td>" + html_escape(r.time.source) +
            "</td><td class=\"n\">" + (r.time.at ? pts(x.hours_late) : "-") + "</td><td class=\"n\">" +
            (r.time.at ? std::to_string(x.days_late) : "-") + "</td>";
    if (l.course.late_days) {
      rows += "<td class=\"n\">" + std::to_string(x.late_days_charged) + "</td><td class=\"n\">" +
              std::to_string(x.late_days_left) + "</td>";
    }
    rows += "<td class=\"n\">" + maybe(r.on_time_score) + "</td><td class=\"n\">" + maybe(x.penalty) +
            "</td><td class=\"n\">" + maybe(x.final_score) + "</td><td>" + html_escape(x.status) + "</td></tr>";
  }
  h += "<p>" + std::to_string(on_time) + " on time, " + std::to_string(grace) + " within the grace period, " +
       std::to_string(l.rows.size() - on_time - grace) + " late or undecided.</p>";
  if (rows.empty()) return h + "<p class=\"note\">No late submissions.</p>";
  h += "<table><tr><th>student</th><th>submitted</th><th>time from</th><th>hours late</th><th>days late</th>";
  if (l.course.late_days) h += "<th>days charged</th><th>days left</th>";
  h += "<th>on-time score</th><th>penalty</th><th>final</th><th>status</th></tr>" + rows + "</table>";
  return h;
}

}  // namespace gpulab::report
