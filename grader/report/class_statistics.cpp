// class_statistics.
#include "class_statistics.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "batch/failure_class.hpp"

namespace gpulab::report {
using grade::PerformanceResult;

double median_of(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

ClassStatistics class_statistics(const batch::ClassResults& c) {
  ClassStatistics s;
  s.students = c.students.size();
  for (const batch::PartColumn& p : c.parts) s.max_total += p.points;
  s.histogram.assign(10, 0);
  s.part_means.assign(c.parts.size(), 0.0);

  std::vector<double> totals;
  using CaseKey = std::tuple<size_t, bool, std::string>;  // part position, hidden, id
  std::map<CaseKey, CaseStat> cases;
  std::map<CaseKey, int> case_number;
  std::vector<PerformanceStat> perf(c.parts.size());
  for (size_t i = 0; i < c.parts.size(); ++i) perf[i].part = c.parts[i].name;
  std::map<grade::FailureKind, FailureStat> failures;

  for (const batch::StudentEntry& e : c.students) {
    const batch::StudentRecord& r = e.record;
    switch (r.status) {
      case batch::GradingStatus::graded: ++s.graded; break;
      case batch::GradingStatus::compile_error: ++s.compile_errors; break;
      case batch::GradingStatus::no_submission: ++s.no_submission; break;
      case batch::GradingStatus::grader_error: ++s.grader_errors; break;
      case batch::GradingStatus::missing: ++s.missing; break;
    }
    if (batch::is_scored(r.status)) {
      ++s.scored;
      totals.push_back(r.score);
      const double pct = s.max_total > 0 ? r.score / s.max_total : 0;
      s.histogram[std::clamp(static_cast<int>(pct * 10 + 1e-9), 0, 9)] += 1;
      if (s.max_total > 0 && r.score >= s.max_total - 1e-6) ++s.full_marks;
    }
    for (const auto& [kind, example] : r.failure_classes) {
      FailureStat& f = failures[kind];
      f.kind = kind;
      ++f.submissions;
      if (f.examples.size() < 3) f.examples.push_back({r.student, example});
    }
    if (!e.result || r.status != batch::GradingStatus::graded) continue;
    for (const grade::PartRecord& part : e.result->parts) {
      size_t pos = 0;
      while (pos < c.parts.size() && c.parts[pos].name != part.name) ++pos;
      if (pos == c.parts.size()) continue;
      s.part_means[pos] += part.score;
      for (const grade::CaseRecord& cr : part.cases) {
        const CaseKey key{pos, cr.hidden, cr.id};
        CaseStat& cs = cases[key];
        if (cs.attempted == 0) {
          const int number = static_cast<int>(case_number.size());
          case_number[key] = number;
          cs = CaseStat{part.name, cr.id, cr.label, cr.family, cr.hidden};
        }
        ++cs.attempted;
        if (cr.passed) ++cs.passed;
      }
      // Only measured ratios: not a failed, implausible or unmeasured part's 0.
      if (part.performance && part.performance->status == grade::PerformanceStatus::scored) {
        const PerformanceResult& pr = *part.performance;
        perf[pos].throughput_unit = pr.rate_unit;
        perf[pos].ratios.push_back({r.student, pr.ratio});
        perf[pos].throughputs.push_back(pr.rate);
      }
    }
  }
  // Part means over every scored student (compile errors and empty hand-ins count as 0).
  for (double& m : s.part_means) m = s.scored ? m / static_cast<double>(s.scored) : 0;
  if (!totals.empty()) {
    double sum = 0;
    for (double t : totals) sum += t;
    s.mean = sum / static_cast<double>(totals.size());
    s.median = median_of(totals);
  }
  for (auto& [key, cs] : cases) s.cases.push_back(cs);  // map order: part, public before hidden, id
  // Within a part and visibility, keep the order the grader listed them in (dataset number).
  std::stable_sort(s.cases.begin(), s.cases.end(), [&](const CaseStat& a, const CaseStat& b) {
    auto pos = [&](const CaseStat& x) {
      size_t p = 0;
      while (p < c.parts.size() && c.parts[p].name != x.part) ++p;
      return std::make_tuple(p, x.hidden, case_number.at(CaseKey{p, x.hidden, x.id}));
    };
    return pos(a) < pos(b);
  });
  for (PerformanceStat& p : perf) {
    std::vector<size_t> order(p.ratios.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return p.ratios[a].second < p.ratios[b].second; });
    PerformanceStat sorted{p.part, p.throughput_unit, {}, {}, 0, 0, 0};
    std::vector<double> values;
    for (size_t i : order) {
      sorted.ratios.push_back(p.ratios[i]);
      sorted.throughputs.push_back(p.throughputs[i]);
      values.push_back(p.ratios[i].second);
    }
    if (!values.empty()) {
      sorted.min = values.front();
      sorted.max = values.back();
      sorted.median = median_of(values);
    }
    s.performance.push_back(std::move(sorted));
  }
  for (auto& [kind, f] : failures) {
    f.title = batch::failure_class_title(kind);
    s.failures.push_back(f);
  }
  const auto& order = batch::failure_class_order();
  std::stable_sort(s.failures.begin(), s.failures.end(), [&](const FailureStat& a, const FailureStat& b) {
    if (a.submissions != b.submissions) return a.submissions > b.submissions;
    return std::find(order.begin(), order.end(), a.kind) < std::find(order.begin(), order.end(), b.kind);
  });
  return s;
}

}  // namespace gpulab::report
