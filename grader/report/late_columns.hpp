// gradebook.csv's late columns, appended after the existing ones when the batch
// was given a course file: on_time_score, submitted_at, time_source,
// hours_late, days_late, late_days_charged, penalty, final, late_status.
#pragma once
#include <string>

#include "late/class_lateness.hpp"

namespace gpulab::report {

// ",on_time_score,...,late_status" (with the leading comma).
std::string late_header();
// The cells of one student (with the leading comma); empty cells when `row` is null.
std::string late_cells(const late::LateRow* row);

}  // namespace gpulab::report
