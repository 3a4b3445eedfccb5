// Times as Gradescope writes them in submission_metadata.json
// ("2018-07-01T14:22:32.365935-07:00": local time with its UTC offset), read
// to the microsecond with the offset kept, and written back for students in
// that same offset ("Monday 2 July 2018, 14:23 (UTC-07:00)") or as ISO 8601.
#pragma once
#include <chrono>
#include <optional>
#include <string>

namespace gpulab::bundle {

using TimePoint = std::chrono::sys_time<std::chrono::microseconds>;  // an instant (UTC)

struct OffsetTime {
  TimePoint at;
  std::chrono::minutes offset{0};  // local time minus UTC, e.g. -420 for -07:00
};

// "YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)"; a space instead of 'T', a space before the
// offset and an offset without its colon are accepted too (Gradescope's exports write them so).
// Digits of the fraction beyond microseconds are dropped. nullopt for any other text or a day
// that does not exist.
std::optional<OffsetTime> parse_offset_time(const std::string& text);

// "UTC-07:00", "UTC+05:30", or "UTC" for offset 0.
std::string offset_name(std::chrono::minutes offset);

// "Tuesday 2 July 2018, 14:23 (UTC-07:00)": `t` in the offset, to the minute: rounded up by
// default (a student who waits until the time shown is never early), else down (a past time
// reads as the clock showed it).
std::string readable_time(TimePoint t, std::chrono::minutes offset, bool round_up = true);

// "2018-07-02T14:22:33-07:00": `t` in the offset, rounded up to the whole second.
std::string iso_time(TimePoint t, std::chrono::minutes offset);

// "3 h 12 min", "45 min", "24 h": a span in hours and minutes, rounded up to the whole minute (at
// least 1 min).
std::string readable_span(std::chrono::microseconds span);

}  // namespace gpulab::bundle
