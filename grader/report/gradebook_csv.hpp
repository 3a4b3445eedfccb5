// DIR/gradebook.csv: one row per student with the per-part scores, the total,
// the status and the failure class (RFC 4180 quoting), for a spreadsheet or an LMS import.
#pragma once
#include <string>

#include "batch/class_results.hpp"
#include "late/class_lateness.hpp"

namespace gpulab::report {

// Columns: student, one per part (its points in the header: "int (50)"), total, max_total,
// status, failure_class, review, names, emails, sid, submission_id, source; with `late` (a course
// file was given) also the late columns of late_columns.hpp.
std::string gradebook_csv(const batch::ClassResults& c, const late::ClassLateness* late = nullptr);
std::string csv_field(const std::string& text);  // quoted when it holds a comma, quote or line break

}  // namespace gpulab::report
