// Parsing and validating the course file (JSON), key by key.
#include "course_file.hpp"

#include <cmath>
#include <set>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "files/atomic_file.hpp"

namespace gpulab::late {
using nlohmann::json;

namespace {

// Errors name the file and the key's path ("labs.histogram.due").
struct Reader {
  std::string origin;

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw std::runtime_error(origin + ": " + (key.empty() ? "" : key + ": ") + what);
  }

  void only_keys(const json& obj, const std::string& where, const std::set<std::string>& allowed) const {
    if (!obj.is_object()) fail(where, "expected an object {...}, got " + std::string(obj.type_name()));
    for (const auto& [key, value] : obj.items()) {
      if (allowed.count(key)) continue;
      std::string list;
      for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
      fail(where.empty() ? key : where + "." + key, "unknown key (allowed here: " + list + ")");
    }
  }

  double number(const json& v, const std::string& key, double lo, double hi) const {
    if (!v.is_number()) fail(key, "expected a number, got " + std::string(v.type_name()));
    const double x = v.get<double>();
    if (!std::isfinite(x) || x < lo || x > hi) {
      fail(key, v.dump() + " is out of range: expected " + json(lo).dump() + " to " + json(hi).dump());
    }
    return x;
  }

  int whole(const json& v, const std::string& key, int lo, int hi) const {
    if (!v.is_number_integer()) fail(key, "expected a whole number, got " + v.dump());
    const long long x = v.get<long long>();
    if (x < lo || x > hi)
      fail(key, v.dump() + " is out of range: expected " + std::to_string(lo) + " to " + std::to_string(hi));
    return static_cast<int>(x);
  }

  std::string text(const json& v, const std::string& key) const {
    if (!v.is_string()) fail(key, "expected a string, got " + v.dump());
    return v.get<std::string>();
  }

  LocalTime local_time(const json& v, const std::string& key) const {
    const std::string written = text(v, key);
    try {
      return parse_local_time(written);
    } catch (const std::runtime_error& e) {
      fail(key, e.what());
    }
  }

  Instant instant(const date::time_zone* zone, LocalTime t, const std::string& key) const {
    try {
      return to_instant(zone, t);
    } catch (const std::runtime_error& e) {
      fail(key, e.what());
    }
  }
};

PenaltyPolicy read_penalty(const Reader& r, const json& p) {
  r.only_keys(p, "penalty", {"percent_per_day", "max_percent"});
  if (!p.contains("percent_per_day"))
    r.fail("penalty", "missing percent_per_day (the percent of the score taken per day late)");
  PenaltyPolicy out;
  out.percent_per_day = r.number(p["percent_per_day"], "penalty.percent_per_day", 0, 100);
  if (p.contains("max_percent")) out.max_percent = r.number(p["max_percent"], "penalty.max_percent", 0, 100);
  return out;
}

LateDayPolicy read_late_days(const Reader& r, const json& p) {
  r.only_keys(p, "late_days", {"budget", "students"});
  if (!p.contains("budget")) r.fail("late_days", "missing budget (the late days each student has for the course)");
  LateDayPolicy out;
  out.budget = r.whole(p["budget"], "late_days.budget", 0, 365);
  if (!p.contains("students")) return out;
  const json& students = p["students"];
  if (!students.is_object())
    r.fail("late_days.students", "expected an object of students, e.g. {\"ada@example.edu\": {\"used_before\": 1}}");
  for (const auto& [who, entry] : students.items()) {
    const std::string key = "late_days.students." + who;
    if (who.empty()) r.fail("late_days.students", "a student key is empty: use the student's label, email or sid");
    r.only_keys(entry, key, {"budget", "used_before"});
    if (entry.empty()) r.fail(key, "gives neither budget nor used_before");
    StudentDays d;
    if (entry.contains("budget")) d.budget = r.whole(entry["budget"], key + ".budget", 0, 365);
    if (entry.contains("used_before")) d.used_before = r.whole(entry["used_before"], key + ".used_before", 0, 365);
    const int budget = d.budget.value_or(out.budget);
    if (d.used_before > budget) {
      r.fail(key + ".used_before", std::to_string(d.used_before) + " days used is more than the budget of " +
                                       std::to_string(budget) + ": correct the budget or used_before");
    }
    out.students[who] = d;
  }
  return out;
}

}  // namespace

const LabDeadline& Course::deadlines(const std::string& lab) const {
  auto it = labs.find(lab);
  if (it != labs.end()) return it->second;
  std::string list;
  for (const auto& [name, d] : labs) list += (list.empty() ? "" : ", ") + name;
  throw std::runtime_error(origin + ": labs: no entry for lab '" + lab + "' (the file lists: " + list + "); add \"" +
                           lab + "\": {\"due\": \"YYYY-MM-DD HH:MM\"}");
}

Course parse_course_file(const std::string& text, const std::string& origin) {
  Reader r{origin};
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    r.fail("", std::string("not valid JSON (") + e.what() + ")");
  }
  r.only_keys(j, "", {"time_zone", "grace_minutes", "labs", "penalty", "late_days"});
  Course c;
  c.origin = origin;
  if (!j.contains("time_zone")) {
    r.fail("time_zone", "missing: name the zone the deadlines are written in, e.g. \"America/New_York\"");
  }
  c.time_zone = r.text(j["time_zone"], "time_zone");
  try {
    c.zone = find_time_zone(c.time_zone);
  } catch (const std::runtime_error& e) {
    r.fail("time_zone", e.what());
  }
  if (j.contains("grace_minutes")) c.grace_minutes = r.whole(j["grace_minutes"], "grace_minutes", 0, 24 * 60 - 1);
  if (j.contains("penalty") == j.contains("late_days")) {
    r.fail("",
           "give exactly one late policy: \"penalty\" (percent per day late) or \"late_days\" (a budget of days "
           "per student)");
  }
  if (j.contains("penalty")) c.penalty = read_penalty(r, j["penalty"]);
  if (j.contains("late_days")) c.late_days = read_late_days(r, j["late_days"]);
  if (!j.contains("labs"))
    r.fail("labs", "missing: list each lab's deadlines, e.g. {\"histogram\": {\"due\": \"2026-11-20 23:59\"}}");
  const json& labs = j["labs"];
  if (!labs.is_object() || labs.empty()) {
    r.fail("labs", "expected an object with one entry per lab, e.g. {\"histogram\": {\"due\": \"2026-11-20 23:59\"}}");
  }
  for (const auto& [name, entry] : labs.items()) {
    const std::string key = "labs." + name;
    r.only_keys(entry, key, {"due", "late_due"});
    if (!entry.contains("due"))
      r.fail(key, "missing due (\"YYYY-MM-DD HH:MM\", wall-clock time in " + c.time_zone + ")");
    LabDeadline d;
    d.lab = name;
    d.due_local = r.local_time(entry["due"], key + ".due");
    d.due = r.instant(c.zone, d.due_local, key + ".due");
    if (entry.contains("late_due")) {
      d.late_due_local = r.local_time(entry["late_due"], key + ".late_due");
      d.late_due = r.instant(c.zone, *d.late_due_local, key + ".late_due");
      if (*d.late_due <= d.due)
        r.fail(key + ".late_due", "must be after due (" + entry["due"].get<std::string>() + ")");
    }
    c.labs[name] = d;
  }
  return c;
}

Course read_course_file(const std::filesystem::path& path) {
  if (!std::filesystem::is_regular_file(path)) {
    throw std::runtime_error("--course '" + path.string() + "': no such file (docs/batch-grading.md shows one)");
  }
  return parse_course_file(files::read_whole_file(path), path.string());
}

}  // namespace gpulab::late
