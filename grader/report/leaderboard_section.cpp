// class_leaderboard, use_pseudonyms and leaderboard_section.
#include "leaderboard_section.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "grade/leaderboard.hpp"
#include "leaderboard_pseudonyms.hpp"
#include "svg_charts.hpp"

namespace gpulab::report {

namespace {
std::string fixed(double x, int decimals) { return fmt::format("{:.{}f}", x, decimals); }

// Why a student's part does not rank, in words; empty when it does.
std::string not_ranked_reason(const batch::StudentEntry& e, const grade::PartRecord* part) {
  if (!e.result) {
    return e.record.status == batch::GradingStatus::no_submission ? "no file to grade"
                                                                  : "not graded (" + to_string(e.record.status) + ")";
  }
  if (!e.result->compiled) return "did not compile";
  if (e.record.backend != "cuda") return "graded on the emulator";
  if (!part || !part->performance) return "speed not scored";
  const grade::PerformanceResult& p = *part->performance;
  switch (p.status) {
    case grade::PerformanceStatus::scored: return p.seconds > 0 ? "" : "no time recorded";
    case grade::PerformanceStatus::failed: return "failed (a correctness case, or a check of the timed calls)";
    case grade::PerformanceStatus::implausible: return "implausible speed (for review)";
    case grade::PerformanceStatus::not_measured: return "not measured";
  }
  return "speed not scored";
}

void order_rows(std::vector<LeaderboardRow>& rows) {
  std::sort(rows.begin(), rows.end(), [](const LeaderboardRow& a, const LeaderboardRow& b) {
    return a.ms != b.ms ? a.ms < b.ms : a.shown < b.shown;
  });
  for (size_t i = 0; i < rows.size(); ++i)
    rows[i].rank = i > 0 && rows[i].ms == rows[i - 1].ms ? rows[i - 1].rank : static_cast<int>(i) + 1;
}
}  // namespace

size_t ClassLeaderboard::ranked_students() const {
  std::vector<std::string> seen;
  for (const PartLeaderboard& p : parts)
    for (const LeaderboardRow& r : p.rows)
      if (std::find(seen.begin(), seen.end(), r.student) == seen.end()) seen.push_back(r.student);
  return seen.size();
}

ClassLeaderboard class_leaderboard(const batch::ClassResults& c) {
  ClassLeaderboard board;
  for (const batch::PartColumn& column : c.parts) {
    PartLeaderboard part{column.name, "", {}, {}};
    bool timed = false;  // some GPU grading scored (or tried to score) this part's speed
    for (const batch::StudentEntry& e : c.students) {
      const grade::PartRecord* found = e.result ? e.result->part(column.name) : nullptr;
      const bool on_gpu = e.record.backend == "cuda" && found && found->performance;
      timed |= on_gpu;
      const std::string why = not_ranked_reason(e, found);
      if (!why.empty()) {
        ++part.not_ranked[why];
        continue;
      }
      const grade::PerformanceResult& p = *found->performance;
      LeaderboardRow row;
      row.student = row.shown = e.record.student;
      row.ms = p.seconds * 1e3;
      row.rate = p.rate;
      row.ratio = p.ratio;
      row.device = p.device;
      part.rate_unit = p.rate_unit;
      if (!row.device.empty() &&
          std::find(board.devices.begin(), board.devices.end(), row.device) == board.devices.end())
        board.devices.push_back(row.device);
      part.rows.push_back(row);
    }
    if (!timed) continue;  // the emulator, or a part without speed points
    board.measured = true;
    order_rows(part.rows);
    board.parts.push_back(std::move(part));
  }
  return board;
}

void use_pseudonyms(ClassLeaderboard& board, const std::string& salt) {
  board.pseudonyms = true;
  for (PartLeaderboard& p : board.parts) {
    for (LeaderboardRow& r : p.rows) r.shown = pseudonym(salt, r.student);
    order_rows(p.rows);
  }
}

std::string leaderboard_section(const ClassLeaderboard& board) {
  std::string h = "<h2>Leaderboard</h2>";
  if (!board.measured) {
    return h +
           "<p class=\"note\">No leaderboard: speed is measured on a GPU only, and no submission of this class "
           "had its speed scored there (grade with --backend cuda to rank them).</p>";
  }
  h += "<p class=\"sub\">Per part, the submissions whose speed was scored, by the median time of one call on the "
       "timed case (lower is better; throughput ranks the same way). A part that failed a case, did not compile, "
       "or whose speed was implausible or not measured is not ranked. ";
  h += board.pseudonyms ? "Students are shown by pseudonym (leaderboard-pseudonyms.csv maps them back; "
                          "--leaderboard-names shows names)."
                        : "Students are shown by name (--leaderboard-names).";
  h += "</p>";
  if (board.devices.size() > 1) {
    std::string list;
    for (const std::string& d : board.devices) list += (list.empty() ? "" : ", ") + d;
    h += "<p class=\"review\">These times were measured on different GPUs (" + html_escape(list) +
         "): they are not comparable across devices.</p>";
  }
  for (const PartLeaderboard& p : board.parts) {
    h += "<h3>part " + html_escape(p.part) + "</h3>";
    if (p.rows.empty()) {
      h += "<p class=\"note\">Nobody ranked.</p>";
    } else {
      h += "<table><tr><th>rank</th><th>student</th><th>time (ms)</th><th>" +
           html_escape(p.rate_unit.empty() ? "throughput" : p.rate_unit) + "</th><th>ratio</th></tr>";
      for (const LeaderboardRow& r : p.rows) {
        h += "<tr><td class=\"n\">" + std::to_string(r.rank) + "</td><td>" + html_escape(r.shown) +
             "</td><td class=\"n\">" + fixed(r.ms, 4) + "</td><td class=\"n\">" + fixed(r.rate, 1) +
             "</td><td class=\"n\">" + (r.ratio > 0 ? fixed(r.ratio, 2) : std::string("-")) + "</td></tr>";
      }
      h += "</table>";
    }
    if (!p.not_ranked.empty()) {
      std::string list;
      for (const auto& [why, n] : p.not_ranked) list += (list.empty() ? "" : "; ") + std::to_string(n) + " " + why;
      h += "<p class=\"sub\">Not ranked: " + html_escape(list) + ".</p>";
    }
  }
  return h;
}

}  // namespace gpulab::report
