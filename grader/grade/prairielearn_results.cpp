// GradeResult -> PrairieLearn's results.json. PrairieLearn refuses a results
// file over 1 MB (the student then sees a grading failure), so the texts are
// cut to fit a budget well below that.
#include "prairielearn_results.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include <fmt/format.h>

namespace gpulab::grade {
using nlohmann::json;

namespace {
constexpr size_t kTopOutputLimit = 64 * 1024;      // the compiler's messages, warnings
constexpr size_t kTestsOutputBudget = 512 * 1024;  // shared by the tests' outputs
constexpr size_t kSmallestTestOutput = 1024;
constexpr size_t kMostFormatErrors = 20;  // compiler errors listed one by one

double round2(double x) { return std::round(x * 100.0) / 100.0; }
std::string points(double x) { return fmt::format("{:g}", round2(x)); }

// At most `limit` bytes, never splitting a UTF-8 character, saying how much was left out.
std::string cut(const std::string& s, size_t limit) {
  if (s.size() <= limit) return s;
  size_t end = limit;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return s.substr(0, end) + "\n[... " + std::to_string(s.size() - end) + " more bytes left out]";
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// The compiler's error lines (gcc "file:line:col: error: ...", nvcc "file(line): error: ...", the linker's
// "undefined reference"), each one format error; all of its output when no line looks like one.
std::vector<std::string> compiler_errors(const std::string& output) {
  std::vector<std::string> errors;
  size_t more = 0;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (line.find("error:") == std::string::npos && line.find("error :") == std::string::npos &&
        line.find("undefined reference") == std::string::npos)
      continue;
    if (errors.size() < kMostFormatErrors) errors.push_back(cut(line, 1024));
    else ++more;
  }
  if (more > 0)
    errors.push_back("... and " + std::to_string(more) + " more errors (all of them are in the output below)");
  if (errors.empty() && !output.empty()) errors.push_back(cut(output, 4096));
  return errors;
}

json not_gradable(const GradeResult& g) {
  json errors = json::array();
  std::string message, output;
  if (!g.not_graded.empty()) {
    message = "Nothing was graded: " + g.not_graded + ".";
    errors.push_back(g.not_graded);
  } else {
    message = "Your submission did not compile, so nothing was graded. Fix the compiler's errors and submit again.";
    errors.push_back("your submission did not compile; the compiler said:");
    for (const std::string& e : compiler_errors(g.compile_output)) errors.push_back(e);
    output = cut(g.compile_output, kTopOutputLimit);
  }
  return {{"gradable", false},  {"score", 0.0},     {"format_errors", errors},
          {"message", message}, {"output", output}, {"tests", json::array()}};
}

json case_test(const GradeResult& g, const PartResult& p, const CaseResult& c, size_t output_limit) {
  // PrairieLearn shows every test to the student at once: a hidden case keeps its points and
  // whether it passed, but not the feedback, which would show its values.
  const bool details = !c.hidden || g.hidden_visibility == "visible";
  std::string message;
  if (c.passed) message = c.feedback.empty() ? "correct" : "correct, with findings (see the output)";
  else if (!details) message = "wrong (the feedback of hidden cases is not shown)";
  else message = cut(first_line(c.feedback), 1024);
  const std::string description = std::string(c.hidden ? "hidden" : "public") + " case " + c.id + " of " + p.signature;
  return {{"name", p.name + ": " + c.label},
          {"description", description},
          {"points", round2(c.score)},
          {"max_points", round2(c.max_score)},
          {"message", message},
          {"output", details ? cut(c.feedback, output_limit) : ""}};
}
}  // namespace

json prairielearn_results(const GradeResult& g) {
  if (!g.not_graded.empty() || !g.compiled) return not_gradable(g);
  size_t count = 0;
  for (const PartResult& p : g.parts)
    count += p.cases.size() + (p.performance ? 1 : 0) + (p.sanitized ? 1 : 0) + (p.profile ? 1 : 0);
  const size_t limit = std::max(kSmallestTestOutput, kTestsOutputBudget / std::max<size_t>(count, 1));

  json tests = json::array();
  size_t passed = 0, cases = 0;
  for (const PartResult& p : g.parts) {
    for (const CaseResult& c : p.cases) {
      tests.push_back(case_test(g, p, c, limit));
      passed += c.passed;
      ++cases;
    }
  }
  for (const PartResult& p : g.parts) {  // the emulator profile's hints, as in Gradescope's results
    if (!p.profile) continue;
    const std::string hints = profile::profile_hints(*p.profile);
    tests.push_back(
        {{"name", p.name + ": performance hints (emulator, no points)"},
         {"points", 0},
         {"max_points", 0},
         {"message", hints.empty() ? "no slow memory access pattern found" : "hints (no effect on the score)"},
         {"output", cut(hints.empty() ? "The emulator's profile found no uncoalesced access, bank conflict, "
                                        "atomic contention or divergent warp in this part's kernels."
                                      : hints,
                        limit)}});
  }
  for (const PartResult& p : g.parts) {
    if (!p.performance) continue;
    const PerformanceResult& r = *p.performance;
    tests.push_back({{"name", p.name + ": speed"},
                     {"description", "speed of " + p.signature + " on the " + r.case_label},
                     {"points", round2(r.score)},
                     {"max_points", round2(r.counted ? r.max_score : 0)},
                     {"message", "speed: " + to_string(r.status)},
                     {"output", cut(r.feedback, limit)}});
  }
  for (const PartResult& p : g.parts) {
    if (!p.sanitized) continue;
    std::string text = "compute-sanitizer (memcheck, racecheck, synccheck, initcheck) on " + p.sanitizer_case + ": ";
    if (p.sanitizer_findings.empty()) text += "nothing found";
    for (const std::string& f : p.sanitizer_findings) text += "\n" + f;
    tests.push_back({{"name", p.name + ": compute-sanitizer"},
                     {"points", 0},
                     {"max_points", 0},
                     {"message", p.sanitizer_findings.empty() ? "nothing found" : "findings (no effect on the score)"},
                     {"output", cut(text, limit)}});
  }

  // A fraction in [0, 1]: float noise in the sum (70.00000000000006 of 70) must not leave the range.
  const double fraction = g.max_score > 0 ? std::clamp(g.score / g.max_score, 0.0, 1.0) : 0.0;
  std::string message = std::to_string(passed) + " of " + std::to_string(cases) + " dataset cases passed; " +
                        points(g.score) + " of " + points(g.max_score) + " points.";
  if (!g.performance_note.empty()) message += " " + g.performance_note;
  std::string output;
  if (!g.compile_output.empty()) output = "Compiler warnings:\n" + cut(g.compile_output, kTopOutputLimit);
  if (!g.isolation.empty()) output += (output.empty() ? "" : "\n\n") + ("Isolation: " + g.isolation + ".");
  return {{"gradable", true},
          {"score", std::round(fraction * 1e6) / 1e6},
          {"message", message},
          {"output", output},
          {"tests", tests}};
}

}  // namespace gpulab::grade
