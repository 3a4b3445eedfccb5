// The outcome of a part's speed test (performance.hpp), as gpulab-results/1's
// parts[].performance.status and the speed test's extra_data "status" write it.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace gpulab::grade {

enum class PerformanceStatus {
  not_measured,  // no reference and no bandwidth thresholds, or no checker: its points leave the maximum
  scored,
  failed,       // a correctness case or a check of the timed calls failed: 0 points
  implausible,  // faster than the device can go: 0 points, flagged for review
};

NLOHMANN_JSON_SERIALIZE_ENUM(PerformanceStatus, {
                                                    {PerformanceStatus::not_measured, "not_measured"},
                                                    {PerformanceStatus::scored, "scored"},
                                                    {PerformanceStatus::failed, "failed"},
                                                    {PerformanceStatus::implausible, "implausible"},
                                                })

inline std::string to_string(PerformanceStatus s) { return nlohmann::json(s).get<std::string>(); }

// A speed test that counts as failed in Gradescope's and PrairieLearn's tests.
inline bool speed_failed(PerformanceStatus s) {
  return s == PerformanceStatus::failed || s == PerformanceStatus::implausible;
}

}  // namespace gpulab::grade
