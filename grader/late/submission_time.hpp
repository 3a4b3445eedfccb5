// When a student handed their work in, and where that time comes from:
// Gradescope's export (`:created_at:` in submission_metadata.yml, the time
// Gradescope received it) when present and readable, otherwise the newest
// modification time of the files in the student's folder, which copying or
// unzipping can change, so it is named as such wherever it is shown.
#pragma once
#include <optional>
#include <string>

#include "course_time.hpp"

namespace gpulab::late {

inline constexpr const char* kFromGradescope = "gradescope_metadata";
inline constexpr const char* kFromFileTime = "file_time";
inline constexpr const char* kFromNothing = "none";

struct SubmissionTime {
  std::optional<Instant> at;  // absent when nothing tells the time
  std::string source;         // kFromGradescope, kFromFileTime or kFromNothing
  std::string note;           // why Gradescope's time was not used, when it was present but unreadable
};

// Gradescope's ":created_at: 2026-11-20 10:11:12.000000000 -08:00" (fractions of a second dropped);
// nullopt when the text has another form.
std::optional<Instant> parse_gradescope_time(const std::string& text);

// `created_at`: Gradescope's text, or empty; `newest_file_time`: format_utc's form, or empty.
SubmissionTime submission_time(const std::string& created_at, const std::string& newest_file_time);

}  // namespace gpulab::late
