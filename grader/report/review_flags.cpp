// Implementation of review_flags.hpp.
#include "report/review_flags.hpp"

namespace gpulab::report {

std::vector<ReviewFlag> review_flags(const std::string& student, const grade::ResultsRecord& result) {
  std::vector<ReviewFlag> flags;
  // What the grade cannot vouch for (the submission's audit, untrusted reports), then speed.
  for (const grade::ReviewNote& n : result.review) {
    flags.push_back({student, n.part.empty() ? "submission" : n.part, n.reason, false});
  }
  for (const grade::PartRecord& part : result.parts) {
    if (!part.performance) continue;
    // An implausible speed, or anything else the grader asked a person to look at.
    std::string reason = part.performance->review;
    if (reason.empty() && part.performance->status == grade::PerformanceStatus::implausible)
      reason = "implausible speed (no reason recorded)";
    if (!reason.empty()) flags.push_back({student, part.name, reason, true});
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
  std::string speed, other;
  for (const ReviewFlag& f : flags) {
    std::string& list = f.speed ? speed : other;
    if (list.find(f.part) == std::string::npos) list += (list.empty() ? "" : ", ") + f.part;
  }
  std::string cell = other.empty() ? "" : "for review: " + other;
  if (!speed.empty()) cell += (cell.empty() ? "" : "; ") + ("speed for review: " + speed);
  return cell;
}

}  // namespace gpulab::report
