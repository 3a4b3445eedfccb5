// days_late and assess_lateness.
#include "late_policy.hpp"

#include <algorithm>

namespace gpulab::late {
using namespace std::chrono;

int days_late(const Course& course, const LabDeadline& d, Instant submitted) {
  const seconds grace = minutes(course.grace_minutes);
  if (submitted <= d.due + grace) return 0;
  // Start below the answer (no calendar day lasts 48 hours), then walk the zone's calendar forward.
  const auto hours_after = duration_cast<hours>(submitted - d.due - grace).count();
  int k = std::max<int>(1, static_cast<int>(hours_after / 48));
  while (submitted > to_instant_lenient(course.zone, d.due_local + date::days(k)) + grace) ++k;
  return k;
}

Lateness assess_lateness(const Course& course, const LabDeadline& d, std::optional<Instant> submitted,
                         std::optional<double> on_time_score, int days_left) {
  Lateness out;
  out.late_days_left = days_left;
  if (!submitted) {
    out.status = kUnknownTime;  // final left empty: a person decides
    return out;
  }
  const seconds grace = minutes(course.grace_minutes);
  if (*submitted > d.due) out.hours_late = duration<double>(*submitted - d.due).count() / 3600.0;
  out.days_late = days_late(course, d, *submitted);
  auto finish = [&](double percent) {
    out.penalty_percent = percent;
    if (on_time_score) {
      out.penalty = *on_time_score * percent / 100.0;
      out.final_score = *on_time_score - *out.penalty;
    }
    return out;
  };
  if (out.days_late == 0) {
    out.status = *submitted > d.due ? kWithinGrace : kOnTime;
    return finish(0);
  }
  if (d.late_due && *submitted > *d.late_due + grace) {
    out.status = kNotAccepted;
    return finish(100);
  }
  if (course.penalty) {
    out.status = kLate;
    return finish(std::min(course.penalty->max_percent, out.days_late * course.penalty->percent_per_day));
  }
  if (out.days_late > days_left) {
    out.status = kBudgetExhausted;  // nothing charged: the days stay for a later lab
    return finish(100);
  }
  out.status = kLate;
  out.late_days_charged = out.days_late;
  out.late_days_left = days_left - out.days_late;
  return finish(0);
}

}  // namespace gpulab::late
