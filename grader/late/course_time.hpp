// Times in a course's time zone: reading a deadline written as local wall-clock
// time ("2026-11-20 23:59") in an IANA zone, and writing an instant as ISO 8601
// with the zone's offset at that instant ("2026-11-20T23:59:00-05:00").
#pragma once
#include <chrono>
#include <optional>
#include <string>

// date::parse trips gcc 12's -Wmaybe-uninitialized inside date.h (a false positive about a
// local of its own); the warning is judged where the template is written, so it is silenced here.
#pragma GCC diagnostic push
#if !defined(__clang__)  // gcc's warning only: clang has no such group and would warn about the name
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <date/tz.h>
#pragma GCC diagnostic pop

namespace gpulab::late {

using Instant = std::chrono::sys_seconds;  // a point in time (UTC)
using LocalTime = date::local_seconds;     // wall-clock time, no zone

// The zone named `name` ("America/New_York"); throws std::runtime_error saying so when the
// system's tzdata does not know it.
const date::time_zone* find_time_zone(const std::string& name);

// "YYYY-MM-DD HH:MM[:SS]" (or with 'T' between date and time) as a wall-clock time. Throws
// std::runtime_error describing the problem (the caller adds the file and key): another form,
// an offset or 'Z', a day that does not exist.
LocalTime parse_local_time(const std::string& text);

// The instant of a wall-clock time in `zone`. Throws std::runtime_error when the clock skips
// that time (a daylight-saving jump forward) or shows it twice (the jump back), naming both readings.
Instant to_instant(const date::time_zone* zone, LocalTime t);

// The instant of a wall-clock time reached by counting days: a time the clock skips becomes the
// moment of the jump, a time shown twice its later reading (the lenient choice for a deadline).
Instant to_instant_lenient(const date::time_zone* zone, LocalTime t);

// "2026-11-20T23:59:00-05:00": the instant as the zone's clock shows it, with the offset.
std::string format_in_zone(const date::time_zone* zone, Instant t);
// "2026-11-21T04:59:00Z".
std::string format_utc(Instant t);
// Reads format_utc's form back; nullopt for anything else.
std::optional<Instant> parse_utc(const std::string& text);

}  // namespace gpulab::late
