// The three report formats (docs/results-format.md describes the JSON ones).
#include "reports.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/color.h>
#include <fmt/format.h>

#include "gradescope_extra_data.hpp"
#include "grade/results_model.hpp"

namespace gpulab::grade {
using nlohmann::json;

namespace {
double round2(double x) { return std::round(x * 100.0) / 100.0; }
std::string points(double x) { return fmt::format("{:g}", round2(x)); }
}  // namespace

json gradescope_results(const GradeResult& g, const std::vector<LeaderboardPart>& leaderboard) {
  json tests = json::array();
  std::string output;
  if (!g.not_graded.empty()) {
    output = "Your submission was not graded, so it scores 0: " + g.not_graded + ".";
    for (const PartResult& p : g.parts) {
      tests.push_back({{"name", p.name + ": handed in"},
                       {"score", 0},
                       {"max_score", round2(p.max_score)},
                       {"status", "failed"},
                       {"output", g.not_graded},
                       {"visibility", "visible"},
                       {"extra_data", ungraded_part_extra_data(p, "not_graded")}});
    }
  } else if (!g.compiled) {
    output = "Your submission did not compile, so it scores 0. The compiler said:\n\n" + g.compile_output;
    for (const PartResult& p : g.parts) {
      tests.push_back({{"name", p.name + ": compiles"},
                       {"score", 0},
                       {"max_score", round2(p.max_score)},
                       {"status", "failed"},
                       {"output", "did not compile (see the compiler messages above)"},
                       {"visibility", "visible"},
                       {"extra_data", ungraded_part_extra_data(p, "did_not_compile")}});
    }
  }
  for (const PartResult& p : g.parts) {
    for (const CaseResult& c : p.cases) {
      json t = {{"name", p.name + ": " + c.label},
                {"score", round2(c.score)},
                {"max_score", round2(c.max_score)},
                {"status", c.passed ? "passed" : "failed"},
                {"output", c.feedback},
                {"visibility", c.hidden ? g.hidden_visibility : "visible"},
                {"extra_data", case_extra_data(c)}};
      if (c.passed && c.feedback.empty()) t["output"] = "correct";
      tests.push_back(t);
    }
  }
  // The profile's hints (emulator; no points), before the speed tests.
  for (const PartResult& p : g.parts) {
    if (!p.profile) continue;
    const std::string hints = profile::profile_hints(*p.profile);
    tests.push_back({{"name", p.name + ": performance hints (emulator, no points)"},
                     {"score", 0},
                     {"max_score", 0},
                     {"status", "passed"},
                     {"output", hints.empty() ? "The emulator's profile found no uncoalesced access, bank conflict, "
                                                "atomic contention or divergent warp in this part's kernels."
                                              : hints},
                     {"visibility", "visible"}});
  }
  for (const PartResult& p : g.parts) {
    if (!p.performance) continue;
    const PerformanceResult& r = *p.performance;
    json extra = {{"status", r.status},
                  {"implausible", r.status == PerformanceStatus::implausible},
                  {"calls_checked", r.calls_checked}};
    if (r.seconds > 0) extra.update({{"median_s", r.seconds}, {"rate", r.rate}, {"rate_unit", r.rate_unit}});
    if (r.ratio > 0) extra["ratio"] = r.ratio;
    if (r.copy_bandwidth > 0) extra["copy_bandwidth_bytes_per_s"] = r.copy_bandwidth;
    if (r.calls > 0) extra.update({{"calls", r.calls}, {"l2_persisting_reset", r.l2_persisting_reset}});
    if (!r.review.empty()) extra["review"] = r.review;
    tests.push_back({{"name", p.name + ": speed"},
                     {"score", round2(r.score)},
                     {"max_score", round2(r.counted ? r.max_score : 0)},
                     {"status", speed_failed(r.status) ? "failed" : "passed"},
                     {"output", r.feedback},
                     {"visibility", "visible"},
                     {"extra_data", extra}});
  }
  for (const PartResult& p : g.parts) {
    if (!p.sanitized) continue;
    std::string text = "compute-sanitizer (memcheck, racecheck, synccheck, initcheck) on " + p.sanitizer_case + ": ";
    if (p.sanitizer_findings.empty()) text += "nothing found";
    for (const std::string& f : p.sanitizer_findings) text += "\n" + f;
    tests.push_back({{"name", p.name + ": compute-sanitizer"},
                     {"score", 0},
                     {"max_score", 0},
                     {"status", p.sanitizer_findings.empty() ? "passed" : "failed"},
                     {"output", text},
                     {"visibility", "visible"}});
  }
  if (!g.audit.empty()) {
    const bool libraries_only =
        std::all_of(g.audit.begin(), g.audit.end(), [](const AuditNote& n) { return n.kind == "library_algorithm"; });
    std::string text =
        std::string("Your compiled file was audited before it was linked with the grader, and it ") +
        (libraries_only ? "calls a library algorithm that computes what this lab asks you to write yourself"
                        : "uses what a graded function has no use for") +
        ". Until the instructor has looked at it, its points are held and its speed is not scored:";
    for (const AuditNote& n : g.audit) text += "\n- it " + n.sentence + (n.where.empty() ? "" : " (" + n.where + ")");
    tests.insert(tests.begin(), json{{"name", "Audit of your compiled file"},
                                     {"score", 0},
                                     {"max_score", 0},
                                     {"status", "failed"},
                                     {"output", text},
                                     {"visibility", "visible"}});
  }
  if (g.compiled && !g.compile_output.empty()) output = "Compiler warnings:\n" + g.compile_output;
  if (!g.performance_note.empty()) output += (output.empty() ? "" : "\n\n") + g.performance_note;
  if (!g.isolation.empty()) output += (output.empty() ? "" : "\n\n") + ("Isolation: " + g.isolation + ".");
  json results = {{"score", round2(g.score)}, {"execution_time", static_cast<int>(std::ceil(g.seconds))},
                  {"output", output},         {"output_format", "text"},
                  {"visibility", "visible"},  {"stdout_visibility", "hidden"},
                  {"tests", tests},           {"extra_data", submission_extra_data(g)}};
  if (!leaderboard.empty()) results["leaderboard"] = gradescope_leaderboard(leaderboard, g);
  return results;
}

json detailed_results(const GradeResult& g) { return to_json(results_record(g)); }

std::string text_report(const GradeResult& g, bool colour, bool hints) {
  // fmt's terminal colours; with colour off every style is empty and paint() adds nothing.
  const auto style = [colour](fmt::text_style st) { return colour ? st : fmt::text_style(); };
  const fmt::text_style pass = style(fmt::fg(fmt::terminal_color::green));
  const fmt::text_style fail = style(fmt::fg(fmt::terminal_color::red));
  const fmt::text_style warn = style(fmt::fg(fmt::terminal_color::yellow));
  const fmt::text_style bold = style(fmt::emphasis::bold);
#if FMT_VERSION >= 80000
  const fmt::text_style dim = style(fmt::emphasis::faint);
#else  // fmt 7 (Debian bullseye's) has no faint: grey instead
  const fmt::text_style dim = style(fmt::fg(fmt::terminal_color::bright_black));
#endif
  const auto paint = [](fmt::text_style st, const std::string& text) { return fmt::format(st, "{}", text); };
  std::string s = paint(bold, "gpulab " + g.lab + " (" + g.backend + " backend): " + g.submission) + "\n";
  if (!g.not_graded.empty()) {
    s += paint(fail, "not graded: ") + g.not_graded + "\n";
  } else if (!g.compiled) {
    s += paint(fail, "does not compile:") + "\n" + g.compile_output + "\n";
  } else if (!g.compile_output.empty()) {
    // Shown on every run, cached builds included: a warning is often the bug (an unused result, a narrowing).
    s += paint(warn, "compiler warnings:") + "\n" + g.compile_output + "\n";
  }
  for (const PartResult& p : g.parts) {
    s += "\n" + paint(bold, "part " + p.name) + "  " + paint(dim, p.signature) + "\n";
    for (const CaseResult& c : p.cases) {
      const std::string tag = fmt::format("{:<4}", c.passed ? "ok" : "FAIL");
      s += fmt::format("  {} {:<44} {:>6}/{:<6} {:6.2f}s\n", paint(c.passed ? pass : fail, tag), c.label,
                       points(c.score), points(c.max_score), c.seconds);
      if (hints && !c.feedback.empty()) {
        std::string f = c.feedback;
        for (size_t pos = 0; (pos = f.find('\n', pos)) != std::string::npos; pos += 7) f.replace(pos, 1, "\n      ");
        s += "      " + paint(c.passed ? dim : warn, f) + "\n";
      }
    }
    if (p.performance) {
      const PerformanceResult& r = *p.performance;
      const bool good = r.status == PerformanceStatus::scored && r.score > 0;
      const bool bad = speed_failed(r.status);
      const bool review = r.status == PerformanceStatus::implausible;
      const char* tag = r.status == PerformanceStatus::scored ? "time" : review ? "REVIEW" : bad ? "FAIL" : "--";
      const fmt::text_style tag_style = good ? pass : review ? warn : bad ? fail : dim;
      s += fmt::format("  {} {:<44} {:>6}/{:<6}\n", paint(tag_style, fmt::format("{:<4}", tag)), "speed",
                       points(r.score), r.counted ? points(r.max_score) : "-");
      std::string f = r.feedback;
      for (size_t pos = 0; (pos = f.find('\n', pos)) != std::string::npos; pos += 7) f.replace(pos, 1, "\n      ");
      s += "      " + f + "\n";
    }
    if (p.sanitized) {
      s += "  " + paint(p.sanitizer_findings.empty() ? pass : fail, "compute-sanitizer") + " on " + p.sanitizer_case +
           ": " + (p.sanitizer_findings.empty() ? "nothing found" : "") + "\n";
      for (const std::string& f : p.sanitizer_findings) s += "      " + f + "\n";
    }
    // Only the findings that are hints (profile_report.hpp): the others are observations that no
    // GPU counter confirms or no line of the student's file can change.
    if (p.profile) {
      std::string lines = profile::profile_hints(*p.profile);
      if (!lines.empty()) {
        s += "  " + paint(warn, "performance hints (emulator, no points):") + "\n";
        for (size_t pos = 0; (pos = lines.find('\n', pos)) != std::string::npos; pos += 7)
          lines.replace(pos, 1, "\n      ");
        s += "      " + lines + "\n";
      }
    }
    s += "  " + paint(bold, "part " + p.name + ": " + points(p.score) + " / " + points(p.max_score)) + "\n";
  }
  if (!g.audit.empty()) {
    s += "\n" + paint(fail, "the audit of your compiled file (its points are held for review):") + "\n";
    for (const AuditNote& n : g.audit) s += "  it " + n.sentence + (n.where.empty() ? "" : " (" + n.where + ")") + "\n";
  }
  if (!g.review.empty()) {
    s += "\n" + paint(warn, "for the instructor's review:") + "\n";
    for (const ReviewNote& n : g.review) s += "  " + (n.part.empty() ? "" : "part " + n.part + ": ") + n.reason + "\n";
  }
  if (!g.performance_note.empty()) s += "\n" + paint(dim, g.performance_note) + "\n";
  if (!g.isolation.empty()) s += "\n" + paint(dim, "isolation: " + g.isolation) + "\n";
  s += "\n" + paint(bold, "score: " + points(g.score) + " / " + points(g.max_score)) + "\n";
  return s;
}

}  // namespace gpulab::grade
