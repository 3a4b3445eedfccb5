// The checker's findings for one launch: each distinct problem (a race per
// pair of code addresses, an out-of-bounds or uninitialised read per code
// address) is reported once, at most kMaxReports of each kind per launch, and
// a summary at the end of the launch says how many more there were.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_set>
#include <utility>

#include "diagnostics.hpp"

namespace gpulab::emu {
struct LaunchState;
}

namespace gpulab::emu::check {

enum class FindingKind { race, out_of_bounds, uninitialised, host_memory, count };

class Findings {
 public:
  static constexpr unsigned kMaxReports = 10;

  void begin_launch();
  // Whether this finding is new (not seen in this launch) and still within the cap.
  // Counts the suppressed ones for the summary.
  bool admit(FindingKind kind, int64_t pc, int64_t other_pc = INT64_MIN);
  // Reports, without changing the program's CUDA error state.
  void emit(Diagnostic d);
  // The summaries of what was not shown, and a note if shadow memory ran out.
  void end_launch(const LaunchState& launch, bool shadow_exhausted, size_t shadow_budget);

 private:
  struct PairHash {
    size_t operator()(const std::pair<int64_t, int64_t>& p) const {
      const auto a = static_cast<uint64_t>(p.first), b = static_cast<uint64_t>(p.second);
      return std::hash<uint64_t>()(a * 0x9E3779B97F4A7C15ull ^ b);
    }
  };
  std::unordered_set<std::pair<int64_t, int64_t>, PairHash> seen_[static_cast<int>(FindingKind::count)];
  unsigned shown_[static_cast<int>(FindingKind::count)] = {};
  unsigned hidden_[static_cast<int>(FindingKind::count)] = {};
};

}  // namespace gpulab::emu::check
