// The table of `gpulab grade --timings` (see grading_timings.hpp).
#include "grade/grading_timings.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace gpulab::grade {

namespace {
std::string phase(double s) { return s < 0 ? "     -" : fmt::format("{:6.3f}", s); }
}  // namespace

std::string timings_text(const GradingTimings& t) {
  std::string out = "timings (seconds):\n";
  double steps = 0;
  for (const StepTiming& s : t.steps) {
    out += fmt::format("  {:<50} {:8.3f}{}\n", (s.detail ? "  " : "") + s.step, s.seconds,
                       s.note.empty() ? "" : "  (" + s.note + ")");
    if (!s.detail) steps += s.seconds;
  }
  double prepare = 0, child = 0, read = 0, compare = 0, profile = 0;
  if (!t.cases.empty()) {
    size_t children = 0;
    double start = 0, setup = 0, call = 0, finish = 0;  // the child's phases, shown only here
    out += fmt::format("  {:<10} {:<40} {:>7} | {:>8} {:>6} {:>6} {:>6} {:>6} | {:>6} {:>7} {:>7}\n", "part", "case",
                       "prepare", "child", "start", "setup", "call", "finish", "read", "compare", "profile");
    for (const CaseTiming& c : t.cases) {
      out +=
          fmt::format("  {:<10} {:<40} {:7.3f} | {:8.3f} {} {} {} {} | {:6.3f} {:7.3f} {:7.3f}\n", c.part,
                      c.label + (c.build == "checking" ? " [checking]" : ""), c.prepare_s, c.child_s, phase(c.start_s),
                      phase(c.setup_s), phase(c.call_s), phase(c.finish_s), c.read_s, c.compare_s, c.profile_s);
      prepare += c.prepare_s;
      child += c.child_s;
      children += c.child == "new";
      if (!c.fresh_process.empty()) out += fmt::format("  {:<10}   (a fresh child next: {})\n", "", c.fresh_process);
      start += std::max(0.0, c.start_s);
      setup += std::max(0.0, c.setup_s);
      call += std::max(0.0, c.call_s);
      finish += std::max(0.0, c.finish_s);
      read += c.read_s;
      compare += c.compare_s;
      profile += c.profile_s;
    }
    out += fmt::format("  {:<10} {:<40} {:7.3f} | {:8.3f} {:6.3f} {:6.3f} {:6.3f} {:6.3f} | {:6.3f} {:7.3f} {:7.3f}\n",
                       "cases", fmt::format("{} runs in {} children", t.cases.size(), children), prepare, child, start,
                       setup, call, finish, read, compare, profile);
  }
  const double cases = prepare + child + read + compare + profile;
  const double counted = steps + cases;
  out += fmt::format("  {:<50} {:8.3f}\n", "steps above", steps);
  out += fmt::format("  {:<50} {:8.3f}\n", "cases (all columns)", cases);
  out += fmt::format("  {:<50} {:8.3f}\n", "other (scoring, folders, ...)", t.total_s - counted);
  out += fmt::format("  {:<50} {:8.3f}\n", "total", t.total_s);
  return out;
}

}  // namespace gpulab::grade
