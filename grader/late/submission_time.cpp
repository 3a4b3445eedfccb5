// Reading Gradescope's created_at and choosing the submission time's source.
#include "submission_time.hpp"

#include <regex>
#include <sstream>

namespace gpulab::late {
using namespace std::chrono;

std::optional<Instant> parse_gradescope_time(const std::string& text) {
  // "2026-11-20 10:11:12.123456789 -08:00"; the fraction and the colon of the offset are optional.
  static const std::regex form(R"((\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d+)? ?([+-]\d{2}):?(\d{2}))");
  std::smatch m;
  if (!std::regex_match(text, m, form)) return std::nullopt;
  std::istringstream in(m[1].str() + " " + m[2].str() + " " + m[4].str() + m[5].str());
  Instant t;
  in >> date::parse("%F %T %z", t);
  if (in.fail()) return std::nullopt;
  return t;
}

SubmissionTime submission_time(const std::string& created_at, const std::string& newest_file_time) {
  SubmissionTime s;
  if (!created_at.empty()) {
    if (auto t = parse_gradescope_time(created_at)) {
      s.at = t;
      s.source = kFromGradescope;
      return s;
    }
    s.note = "Gradescope's created_at '" + created_at + "' is not a time gpulab reads";
  }
  if (auto t = parse_utc(newest_file_time)) {
    s.at = t;
    s.source = kFromFileTime;
  } else {
    s.source = kFromNothing;
  }
  return s;
}

}  // namespace gpulab::late
