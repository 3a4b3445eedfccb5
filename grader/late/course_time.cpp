// Time zone look-up, parsing of local deadlines and ISO 8601 formatting with date/tz.
#include "course_time.hpp"

#include <optional>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace gpulab::late {
using namespace std::chrono;

const date::time_zone* find_time_zone(const std::string& name) {
  try {
    return date::locate_zone(name);
  } catch (const std::exception&) {
    throw std::runtime_error("unknown time zone '" + name +
                             "': give an IANA name such as \"America/New_York\" or \"Europe/Berlin\" (the system's "
                             "tzdata, in /usr/share/zoneinfo, lists them; install the tzdata package if it is empty)");
  }
}

LocalTime parse_local_time(const std::string& text) {
  static const std::regex form(R"((\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2})?)");
  static const std::regex with_offset(R"(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2})?(\.\d+)? ?(Z|[+-]\d{2}:?\d{2}))");
  std::smatch m;
  if (std::regex_match(text, with_offset)) {
    throw std::runtime_error("'" + text +
                             "' has an offset or 'Z': write the wall-clock time in the course's "
                             "time_zone, e.g. \"2026-11-20 23:59\"");
  }
  if (!std::regex_match(text, m, form)) {
    throw std::runtime_error("'" + text +
                             "' is not a date and time: expected \"YYYY-MM-DD HH:MM\" or "
                             "\"YYYY-MM-DD HH:MM:SS\" (wall-clock time in the course's time_zone)");
  }
  const std::string normal = m[1].str() + " " + m[2].str() + (m[3].matched ? m[3].str() : ":00");
  std::istringstream in(normal);
  LocalTime t;
  in >> date::parse("%Y-%m-%d %H:%M:%S", t);
  if (in.fail()) {
    throw std::runtime_error("'" + text + "' is not a real date and time (check the month, day, hour and minute)");
  }
  return t;
}

Instant to_instant(const date::time_zone* zone, LocalTime t) {
  try {
    return zone->to_sys(t);
  } catch (const date::nonexistent_local_time&) {
    throw std::runtime_error(date::format("%F %T", t) + " does not exist in " + zone->name() +
                             " (the clocks jump forward over it): choose another time");
  } catch (const date::ambiguous_local_time&) {
    const Instant early = zone->to_sys(t, date::choose::earliest), late = zone->to_sys(t, date::choose::latest);
    throw std::runtime_error(date::format("%F %T", t) + " happens twice in " + zone->name() +
                             " (the clocks go back): it is " + format_in_zone(zone, early) + " or " +
                             format_in_zone(zone, late) + "; choose another time");
  }
}

Instant to_instant_lenient(const date::time_zone* zone, LocalTime t) { return zone->to_sys(t, date::choose::latest); }

std::string format_in_zone(const date::time_zone* zone, Instant t) {
  return date::format("%FT%T%Ez", date::zoned_time<seconds>(zone, t));
}

std::string format_utc(Instant t) { return date::format("%FT%TZ", t); }

std::optional<Instant> parse_utc(const std::string& text) {
  static const std::regex form(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)");
  if (!std::regex_match(text, form)) return std::nullopt;
  std::istringstream in(text);
  Instant t;
  in >> date::parse("%FT%TZ", t);
  if (in.fail()) return std::nullopt;
  return t;
}

}  // namespace gpulab::late
