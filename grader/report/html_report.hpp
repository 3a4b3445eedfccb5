// DIR/report.html: one offline, self-contained page (inline CSS and SVG, no
// scripts, nothing fetched) on a graded class: the score distribution, the
// pass rate of every test case, the performance ratios (GPU backend), the most
// common failure classes with example messages, the most similar pairs of
// submissions (when a similarity report was made), and a row per student.
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "batch/class_results.hpp"

namespace gpulab::report {

// `similarity`: OUT/similarity/summary.json (similarity_section.hpp), shown after the review list.
std::string html_report(const batch::ClassResults& c, const std::string& generated_at,
                        const std::optional<nlohmann::json>& similarity = std::nullopt);

}  // namespace gpulab::report
