// late_header and late_cells.
#include "late_columns.hpp"

#include <cmath>

#include <fmt/format.h>

#include "gradebook_csv.hpp"

namespace gpulab::report {

namespace {
std::string number(double x) {
  return fmt::format("{:g}", std::round(x * 100.0) / 100.0 + 0.0);  // + 0.0: never "-0"
}
std::string maybe(const std::optional<double>& x) { return x ? number(*x) : std::string(); }
}  // namespace

std::string late_header() {
  return ",on_time_score,submitted_at,time_source,hours_late,days_late,late_days_charged,penalty,final,late_status";
}

std::string late_cells(const late::LateRow* row) {
  if (!row) return ",,,,,,,,,";
  const late::Lateness& l = row->lateness;
  const bool known = row->time.at.has_value();
  return "," + maybe(row->on_time_score) + "," + csv_field(row->submitted_at) + "," + csv_field(row->time.source) +
         "," + (known ? number(l.hours_late) : "") + "," + (known ? std::to_string(l.days_late) : "") + "," +
         (known ? std::to_string(l.late_days_charged) : "") + "," + maybe(l.penalty) + "," + maybe(l.final_score) +
         "," + csv_field(l.status);
}

}  // namespace gpulab::report
