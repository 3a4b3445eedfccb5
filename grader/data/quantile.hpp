// The q-quantile of sorted values, interpolated between the two nearest (q = 0.5: the median).
// One definition for the harness, which reports its timed calls' median and spread, and for the
// grader, which recomputes them from the reported samples and bounds them with its own clock.
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

namespace gpulab {

// 0 for no values.
inline double quantile_of_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(pos);
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (pos - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

inline double quantile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  return quantile_of_sorted(values, q);
}

}  // namespace gpulab
