// The numbers behind report.html, computed from a graded class: the score
// distribution, the pass rate of every test case, the performance ratios per
// part (GPU backend), and the most common failure classes with examples.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "batch/class_results.hpp"

namespace gpulab::report {

struct CaseStat {
  std::string part, id, label, family;
  bool hidden = false;
  int passed = 0, attempted = 0;  // over the submissions that compiled
};

struct PerformanceStat {
  std::string part;
  std::string throughput_unit;                         // "GB/s", "GFLOP/s" or ""
  std::vector<std::pair<std::string, double>> ratios;  // (student, t_reference / t_submission), ascending
  std::vector<double> throughputs;                     // same order as ratios, 0 where not given
  double min = 0, median = 0, max = 0;
};

struct FailureStat {
  grade::FailureKind kind = grade::FailureKind::other;
  std::string title;
  int submissions = 0;  // submissions with at least one case of this class (or the status)
  std::vector<std::pair<std::string, std::string>> examples;  // (student, message), up to 3
};

struct ClassStatistics {
  size_t students = 0, scored = 0, graded = 0, compile_errors = 0, no_submission = 0, grader_errors = 0, missing = 0;
  size_t full_marks = 0;
  double max_total = 0, mean = 0, median = 0;
  std::vector<int> histogram;                // 10 bins of the total as a percentage of max_total; 100% in the last
  std::vector<double> part_means;            // per part column, over the scored students
  std::vector<CaseStat> cases;               // in part order, public cases before hidden ones
  std::vector<PerformanceStat> performance;  // one per part; ratios empty when not measured
  std::vector<FailureStat> failures;         // most common first
};

ClassStatistics class_statistics(const batch::ClassResults& c);
double median_of(std::vector<double> v);

}  // namespace gpulab::report
