// DIR/report.html: one offline, self-contained page (inline CSS and SVG, no
// scripts, nothing fetched) on a graded class: the score distribution, the
// pass rate of every test case, the performance ratios (GPU backend), the most
// common failure classes with example messages, a row per student, and with a
// course file the late submissions (late_section.hpp).
#pragma once
#include <string>

#include "batch/class_results.hpp"
#include "late/class_lateness.hpp"

namespace gpulab::report {

std::string html_report(const batch::ClassResults& c, const std::string& generated_at,
                        const late::ClassLateness* late = nullptr);

}  // namespace gpulab::report
