// DIR/report.html: one offline, self-contained page (inline CSS and SVG, no
// scripts, nothing fetched) on a graded class: the score distribution, the
// pass rate of every test case, the performance ratios (GPU backend), the most
// common failure classes with example messages, and a row per student.
#pragma once
#include <string>

#include "batch/class_results.hpp"

namespace gpulab::report {

std::string html_report(const batch::ClassResults& c, const std::string& generated_at);

}  // namespace gpulab::report
