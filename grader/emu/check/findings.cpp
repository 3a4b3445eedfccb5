// Deduplication, caps and end-of-launch summaries of the checker's reports.
#include "findings.hpp"

#include <algorithm>
#include <utility>

#include "launch_state.hpp"

namespace gpulab::emu::check {

void Findings::begin_launch() {
  for (int k = 0; k < static_cast<int>(FindingKind::count); ++k) {
    seen_[k].clear();
    shown_[k] = hidden_[k] = 0;
  }
}

bool Findings::admit(FindingKind kind, int64_t pc, int64_t other_pc) {
  const int k = static_cast<int>(kind);
  if (!seen_[k].insert({std::min(pc, other_pc), std::max(pc, other_pc)}).second) return false;
  if (shown_[k] >= kMaxReports) {
    ++hidden_[k];
    return false;
  }
  ++shown_[k];
  return true;
}

void Findings::emit(Diagnostic d) { report(std::move(d), cudaSuccess); }

void Findings::end_launch(const LaunchState& launch, bool shadow_exhausted, size_t shadow_budget) {
  static const char* const kinds[] = {"data-race", "out-of-bounds", "uninitialised-shared-read", "illegal-address"};
  static const char* const what[] = {"data races (pairs of accesses at different code locations)",
                                     "out-of-bounds accesses (at different code locations)",
                                     "reads of uninitialised shared memory (at different code locations)",
                                     "accesses to host memory (at different code locations)"};
  for (int k = 0; k < static_cast<int>(FindingKind::count); ++k) {
    if (hidden_[k] == 0) continue;
    Diagnostic d;
    d.kind = kinds[k];
    d.severity = "error";
    d.kernel = launch.request.kernel_name;
    d.file = launch.request.file;
    d.line = launch.request.line;
    d.message = std::to_string(hidden_[k]) + " more distinct " + what[k] + " in " + launch.where() +
                " were found and not shown (the first " + std::to_string(kMaxReports) + " are above).";
    emit(std::move(d));
  }
  if (shadow_exhausted) {
    Diagnostic d;
    d.kind = "race-check-limit";
    d.severity = "warning";
    d.kernel = launch.request.kernel_name;
    d.file = launch.request.file;
    d.line = launch.request.line;
    d.message = "the race check of " + launch.where() +
                " tracked only part of the global memory the kernel "
                "touched (its " +
                std::to_string(shadow_budget >> 20) +
                " MiB of shadow state ran out); races "
                "in the rest were not looked for. Try a smaller input, or set GPULAB_RACE_CHECK_SHADOW_MB.";
    emit(std::move(d));
  }
}

}  // namespace gpulab::emu::check
