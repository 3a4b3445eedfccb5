// Implementation of speed_run_timing.hpp.
#include "grade/speed_run_timing.hpp"

#include <fmt/format.h>

namespace gpulab::grade {

StepTiming speed_run_step(const std::string& what, const process::ProcessResult& child, double compare_s) {
  double main = -1, call = -1, returned = -1, start = -1, end = -1;
  for (const process::OutputMarker& m : child.markers) {
    if (m.name == "main" && main < 0) main = m.seconds;
    if (m.name == "call" && call < 0) call = m.seconds;
    if (m.name == "returned" && returned < 0) returned = m.seconds;
    if (m.name == "start" && start < 0) start = m.seconds;
    if (m.name == "end") end = m.seconds;
  }
  std::string note;
  const auto add = [&](const char* name, double from, double to) {
    if (from < 0 || to < from) return;
    note += fmt::format("{}{} {:.2f}", note.empty() ? "" : ", ", name, to - from);
  };
  add("start", 0, main);
  add("setup", main, call);
  add("checked call", call, returned);
  add("its checks and outputs, the timed inputs", returned, start);
  add("timed calls", start, end);
  add("rest", end >= 0 ? end : returned, child.seconds);
  note += fmt::format("{}compare {:.2f}", note.empty() ? "" : ", ", compare_s);
  return {what, child.seconds + compare_s, note, true};
}

}  // namespace gpulab::grade
