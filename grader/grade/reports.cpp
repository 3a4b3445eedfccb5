// The three report formats (docs/results-format.md describes the JSON ones).
#include "reports.hpp"

#include <cmath>
#include <cstdio>

#include "gradescope_extra_data.hpp"
#include "grade/results_model.hpp"

namespace gpulab::grade {
using nlohmann::json;

namespace {
double round2(double x) { return std::round(x * 100.0) / 100.0; }
std::string points(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", round2(x));
  return buf;
}
}  // namespace

json gradescope_results(const GradeResult& g, const std::vector<LeaderboardPart>& leaderboard) {
  json tests = json::array();
  std::string output;
  if (!g.not_graded.empty()) {
    output = "Your submission was not graded, so it scores 0: " + g.not_graded + ".";
    for (const PartResult& p : g.parts) {
      tests.push_back({{"name", p.name + ": handed in"}, {"score", 0}, {"max_score", round2(p.max_score)},
                       {"status", "failed"}, {"output", g.not_graded}, {"visibility", "visible"},
                       {"extra_data", ungraded_part_extra_data(p, "not_graded")}});
    }
  } else if (!g.compiled) {
    output = "Your submission did not compile, so it scores 0. The compiler said:\n\n" + g.compile_output;
    for (const PartResult& p : g.parts) {
      tests.push_back({{"name", p.name + ": compiles"}, {"score", 0}, {"max_score", round2(p.max_score)},
                       {"status", "failed"}, {"output", "did not compile (see the compiler messages above)"},
                       {"visibility", "visible"}, {"extra_data", ungraded_part_extra_data(p, "did_not_compile")}});
    }
  }
  for (const PartResult& p : g.parts) {
    for (const CaseResult& c : p.cases) {
      json t = {{"name", p.name + ": " + c.label}, {"score", round2(c.score)}, {"max_score", round2(c.max_score)},
                {"status", c.passed ? "passed" : "failed"}, {"output", c.passed ? c.feedback : c.feedback},
                {"visibility", c.hidden ? g.hidden_visibility : "visible"}, {"extra_data", case_extra_data(c)}};
      if (c.passed && c.feedback.empty()) t["output"] = "correct";
      tests.push_back(t);
    }
  }
  // The profile's hints (emulator; no points), before the speed tests.
  for (const PartResult& p : g.parts) {
    if (!p.profile) continue;
    const std::string hints = profile::profile_hints(*p.profile);
    tests.push_back({{"name", p.name + ": performance hints (emulator, no points)"}, {"score", 0}, {"max_score", 0},
                     {"status", "passed"},
                     {"output", hints.empty() ? "The emulator's profile found no uncoalesced access, bank conflict, "
                                                "atomic contention or divergent warp in this part's kernels."
                                              : hints},
                     {"visibility", "visible"}});
  }
  for (const PartResult& p : g.parts) {
    if (!p.performance) continue;
    const PerformanceResult& r = *p.performance;
    json extra = {{"status", r.status}, {"implausible", r.status == PerformanceStatus::implausible}, {"calls_checked", r.calls_checked}};
    if (r.seconds > 0) extra.update({{"median_s", r.seconds}, {"rate", r.rate}, {"rate_unit", r.rate_unit}});
    if (r.ratio > 0) extra["ratio"] = r.ratio;
    if (r.copy_bandwidth > 0) extra["copy_bandwidth_bytes_per_s"] = r.copy_bandwidth;
    if (r.calls > 0) extra.update({{"calls", r.calls}, {"l2_persisting_reset", r.l2_persisting_reset}});
    if (!r.review.empty()) extra["review"] = r.review;
    tests.push_back({{"name", p.name + ": speed"}, {"score", round2(r.score)},
                     {"max_score", round2(r.counted ? r.max_score : 0)},
                     {"status", speed_failed(r.status) ? "failed" : "passed"},
                     {"output", r.feedback}, {"visibility", "visible"}, {"extra_data", extra}});
  }
  for (const PartResult& p : g.parts) {
    if (!p.sanitized) continue;
    std::string text = "compute-sanitizer (memcheck, racecheck, synccheck, initcheck) on " + p.sanitizer_case + ": ";
    if (p.sanitizer_findings.empty()) text += "nothing found";
    for (const std::string& f : p.sanitizer_findings) text += "\n" + f;
    tests.push_back({{"name", p.name + ": compute-sanitizer"}, {"score", 0}, {"max_score", 0},
                     {"status", p.sanitizer_findings.empty() ? "passed" : "failed"}, {"output", text},
                     {"visibility", "visible"}});
  }
  if (g.compiled && !g.compile_output.empty()) output = "Compiler warnings:\n" + g.compile_output;
  if (!g.performance_note.empty()) output += (output.empty() ? "" : "\n\n") + g.performance_note;
  if (!g.isolation.empty()) output += (output.empty() ? "" : "\n\n") + ("Isolation: " + g.isolation + ".");
  json results = {{"score", round2(g.score)},
                  {"execution_time", static_cast<int>(std::ceil(g.seconds))},
                  {"output", output},
                  {"output_format", "text"},
                  {"visibility", "visible"},
                  {"stdout_visibility", "hidden"},
                  {"tests", tests},
                  {"extra_data", submission_extra_data(g)}};
  if (!leaderboard.empty()) results["leaderboard"] = gradescope_leaderboard(leaderboard, g);
  return results;
}

json detailed_results(const GradeResult& g) { return to_json(results_record(g)); }

std::string text_report(const GradeResult& g, bool colour, bool hints) {
  const char* green = colour ? "\033[32m" : "";
  const char* red = colour ? "\033[31m" : "";
  const char* bold = colour ? "\033[1m" : "";
  const char* dim = colour ? "\033[2m" : "";
  const char* reset = colour ? "\033[0m" : "";
  std::string s = std::string(bold) + "gpulab " + g.lab + " (" + g.backend + " backend): " + g.submission + reset + "\n";
  if (!g.not_graded.empty()) {
    s += std::string(red) + "not graded: " + reset + g.not_graded + "\n";
  } else if (!g.compiled) {
    s += std::string(red) + "does not compile:" + reset + "\n" + g.compile_output + "\n";
  } else if (!g.compile_output.empty()) {
    // Shown on every run, cached builds included: a warning is often the bug (an unused result, a narrowing).
    s += std::string(bold) + "compiler warnings:" + reset + "\n" + g.compile_output + "\n";
  }
  for (const PartResult& p : g.parts) {
    s += "\n" + std::string(bold) + "part " + p.name + reset + "  " + dim + p.signature + reset + "\n";
    for (const CaseResult& c : p.cases) {
      char line[256];
      std::snprintf(line, sizeof line, "  %s%-4s%s %-44s %6s/%-6s %6.2fs\n", c.passed ? green : red,
                    c.passed ? "ok" : "FAIL", reset, c.label.c_str(), points(c.score).c_str(),
                    points(c.max_score).c_str(), c.seconds);
      s += line;
      if (hints && !c.feedback.empty()) {
        std::string f = c.feedback;
        for (size_t pos = 0; (pos = f.find('\n', pos)) != std::string::npos; pos += 7) f.replace(pos, 1, "\n      ");
        s += std::string("      ") + (c.passed ? dim : "") + f + reset + "\n";
      }
    }
    if (p.performance) {
      const PerformanceResult& r = *p.performance;
      const bool good = r.status == PerformanceStatus::scored && r.score > 0;
      const bool bad = speed_failed(r.status);
      const char* tag = r.status == PerformanceStatus::scored  ? "time"
                        : r.status == PerformanceStatus::failed ? "FAIL"
                        : r.status == PerformanceStatus::implausible ? "REVIEW"
                                                                     : "--";
      char line[256];
      std::snprintf(line, sizeof line, "  %s%-4s%s %-44s %6s/%-6s\n", good ? green : (bad ? red : dim), tag, reset,
                    "speed", points(r.score).c_str(), r.counted ? points(r.max_score).c_str() : "-");
      s += line;
      std::string f = r.feedback;
      for (size_t pos = 0; (pos = f.find('\n', pos)) != std::string::npos; pos += 7) f.replace(pos, 1, "\n      ");
      s += "      " + f + "\n";
    }
    if (p.sanitized) {
      s += std::string("  ") + (p.sanitizer_findings.empty() ? green : red) + "compute-sanitizer" + reset + " on " +
           p.sanitizer_case + ": " + (p.sanitizer_findings.empty() ? "nothing found" : "") + "\n";
      for (const std::string& f : p.sanitizer_findings) s += "      " + f + "\n";
    }
    if (p.profile && !p.profile->findings.empty()) {
      s += "  " + std::string(dim) + "performance hints (emulator, no points):" + reset + "\n";
      for (size_t i = 0; i < p.profile->findings.size() && i < 3; ++i) s += "      " + p.profile->findings[i].sentence + "\n";
    }
    s += "  " + std::string(bold) + "part " + p.name + ": " + points(p.score) + " / " + points(p.max_score) + reset + "\n";
  }
  if (!g.performance_note.empty()) s += "\n" + std::string(dim) + g.performance_note + reset + "\n";
  if (!g.isolation.empty()) s += "\n" + std::string(dim) + "isolation: " + g.isolation + reset + "\n";
  s += "\n" + std::string(bold) + "score: " + points(g.score) + " / " + points(g.max_score) + reset + "\n";
  return s;
}

}  // namespace gpulab::grade
