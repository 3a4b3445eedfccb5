// Reading and writing Gradescope's times with their UTC offsets (date library).
#include "gradescope_time.hpp"

#include <regex>
#include <sstream>

#include <fmt/format.h>

// date::parse trips gcc 12's -Wmaybe-uninitialized inside date.h (a false positive about a
// local of its own); the warning is judged where the template is written, so it is silenced here.
#pragma GCC diagnostic push
#if !defined(__clang__)  // gcc's warning only: clang has no such group and would warn about the name
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <date/date.h>
#pragma GCC diagnostic pop

namespace gpulab::bundle {
using namespace std::chrono;

std::optional<OffsetTime> parse_offset_time(const std::string& text) {
  static const std::regex form(R"((\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d+))? ?(Z|([+-])(\d{2}):?(\d{2})))");
  std::smatch m;
  if (!std::regex_match(text, m, form)) return std::nullopt;
  std::istringstream in(m[1].str() + " " + m[2].str());
  date::local_seconds local;
  in >> date::parse("%F %T", local);
  if (in.fail()) return std::nullopt;
  std::string fraction = m[3].matched ? m[3].str().substr(0, 6) : "";
  fraction.resize(6, '0');
  OffsetTime t;
  if (m[4].str() != "Z") {
    const int hours = std::stoi(m[6].str()), mins = std::stoi(m[7].str());
    if (hours > 23 || mins > 59) return std::nullopt;
    t.offset = minutes((m[5].str() == "-" ? -1 : 1) * (hours * 60 + mins));
  }
  t.at = TimePoint(local.time_since_epoch() - t.offset + microseconds(std::stol(fraction)));
  return t;
}

std::string offset_name(minutes offset) {
  if (offset == minutes(0)) return "UTC";
  // Offsets read by parse_offset_time are below 24 h.
  const int m = static_cast<int>(offset.count() < 0 ? -offset.count() : offset.count()) % (24 * 60);
  return fmt::format("UTC{}{:02}:{:02}", offset.count() < 0 ? '-' : '+', m / 60, m % 60);
}

std::string readable_time(TimePoint t, minutes offset, bool round_up) {
  const sys_time<minutes> whole = round_up ? ceil<minutes>(t) : floor<minutes>(t);
  const date::local_time<minutes> local{whole.time_since_epoch() + offset};
  const date::year_month_day day{floor<date::days>(local)};
  return date::format("%A ", local) + std::to_string(unsigned(day.day())) + date::format(" %B %Y, %H:%M", local) +
         " (" + offset_name(offset) + ")";
}

std::string iso_time(TimePoint t, minutes offset) {
  const date::local_seconds local{ceil<seconds>(t).time_since_epoch() + offset};
  std::string zone = offset_name(offset).substr(3);
  return date::format("%FT%T", local) + (zone.empty() ? "+00:00" : zone);
}

std::string readable_span(microseconds span) {
  const long total = std::max<long>(1, ceil<minutes>(span).count());
  const long h = total / 60, m = total % 60;
  if (h == 0) return std::to_string(m) + " min";
  return std::to_string(h) + " h" + (m ? " " + std::to_string(m) + " min" : "");
}

}  // namespace gpulab::bundle
