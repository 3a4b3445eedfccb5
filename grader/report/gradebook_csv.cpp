// gradebook_csv.
#include "gradebook_csv.hpp"

#include <cmath>

#include <fmt/format.h>

#include "report/late_columns.hpp"
#include "report/review_flags.hpp"

namespace gpulab::report {
namespace {
std::string number(double x) { return fmt::format("{:g}", std::round(x * 100.0) / 100.0); }
}  // namespace

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string gradebook_csv(const batch::ClassResults& c, const late::ClassLateness* late) {
  std::string s = "student";
  for (const batch::PartColumn& p : c.parts) s += "," + csv_field(p.name + " (" + number(p.points) + ")");
  s += ",total,max_total,status,failure_class,review,names,emails,sid,submission_id,source";
  s += (late ? late_header() : std::string()) + "\r\n";
  double max_total = 0;
  for (const batch::PartColumn& p : c.parts) max_total += p.points;
  for (const batch::StudentEntry& e : c.students) {
    const batch::StudentRecord& r = e.record;
    s += csv_field(r.student);
    for (const batch::PartColumn& p : c.parts) {
      std::string cell =
          r.status == batch::GradingStatus::compile_error || r.status == batch::GradingStatus::no_submission ? "0" : "";
      if (e.result)
        if (const grade::PartRecord* part = e.result->part(p.name)) cell = number(part->score);
      s += "," + cell;
    }
    const bool scored = batch::is_scored(r.status);
    std::string names, emails, sids;
    for (const batch::Submitter& p : r.submitters) {
      names += (names.empty() ? "" : "; ") + p.name;
      emails += (emails.empty() ? "" : "; ") + p.email;
      sids += (sids.empty() ? "" : "; ") + p.sid;
    }
    s += "," + (scored ? number(r.score) : std::string()) + "," + number(max_total) + "," +
         csv_field(batch::to_string(r.status)) + "," +
         csv_field(r.failure_class == grade::FailureKind::none ? "" : to_string(r.failure_class)) + "," +
         csv_field(e.result ? review_cell(review_flags(r.student, *e.result)) : std::string()) + "," +
         csv_field(names) + "," + csv_field(emails) + "," + csv_field(sids) + "," + csv_field(r.submission_id) + "," +
         csv_field(r.source) + (late ? late_cells(late->row(r.student)) : std::string()) + "\r\n";
  }
  return s;
}

}  // namespace gpulab::report
