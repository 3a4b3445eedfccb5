// DIR/gradebook.csv: one row per student with the per-part scores, the total,
// the status and the failure class (RFC 4180 quoting), for a spreadsheet or an LMS import.
#pragma once
#include <string>

#include "batch/class_results.hpp"

namespace gpulab::report {

// Columns: student, one per part (its points in the header: "int (50)"), total, max_total,
// status, failure_class, names, emails, sid, submission_id, source.
std::string gradebook_csv(const batch::ClassResults& c);
std::string csv_field(const std::string& text);  // quoted when it holds a comma, quote or line break

}  // namespace gpulab::report
