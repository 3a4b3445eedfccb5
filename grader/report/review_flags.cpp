// Implementation of review_flags.hpp.
#include "report/review_flags.hpp"

namespace gpulab::report {
using nlohmann::json;

std::vector<ReviewFlag> review_flags(const std::string& student, const json& result) {
  std::vector<ReviewFlag> flags;
  if (!result.is_object() || !result.contains("parts") || !result["parts"].is_array()) return flags;
  for (const json& part : result["parts"]) {
    if (!part.is_object() || !part.contains("performance") || !part["performance"].is_object()) continue;
    const json& perf = part["performance"];
    // An implausible speed, or anything else the grader asked a person to look at.
    std::string reason = perf.value("review", std::string());
    if (reason.empty() && perf.value("status", "") == "implausible") reason = "implausible speed (no reason recorded)";
    if (!reason.empty()) flags.push_back({student, part.value("name", ""), reason});
  }
  return flags;
}

std::vector<ReviewFlag> review_flags(const batch::ClassResults& c) {
  std::vector<ReviewFlag> all;
  for (const batch::StudentEntry& e : c.students) {
    if (!e.result) continue;
    for (ReviewFlag& f : review_flags(e.record.student, *e.result)) all.push_back(std::move(f));
  }
  return all;
}

std::string review_cell(const std::vector<ReviewFlag>& flags) {
  if (flags.empty()) return "";
  std::string parts;
  for (const ReviewFlag& f : flags) parts += (parts.empty() ? "" : ", ") + f.part;
  return "speed for review: " + parts;
}

}  // namespace gpulab::report
