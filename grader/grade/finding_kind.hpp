// The kinds of the emulator's findings as they reach the grader (each line of
// its GPULAB_EMU_REPORT file has "kind"; grader/emu writes them). The grader
// acts on two (a data race fails the case; the watchdog stopped the run); the
// rest are shown to the student as they are.
#pragma once
#include <nlohmann/json.hpp>

namespace gpulab::grade {

enum class FindingKind {
  other,  // a kind this grader does not know (a newer emulator)
  data_race,
  watchdog,
  out_of_bounds,
  uninitialised_shared_read,
  stack_overflow,
  barrier_divergence,
  warp_deadlock,
  warp_misuse,
  shared_memory_limit,
  launch_config,
  api_misuse,
};

NLOHMANN_JSON_SERIALIZE_ENUM(FindingKind, {
                                              {FindingKind::other, "other"},
                                              {FindingKind::data_race, "data-race"},
                                              {FindingKind::watchdog, "watchdog"},
                                              {FindingKind::out_of_bounds, "out-of-bounds"},
                                              {FindingKind::uninitialised_shared_read, "uninitialised-shared-read"},
                                              {FindingKind::stack_overflow, "stack-overflow"},
                                              {FindingKind::barrier_divergence, "barrier-divergence"},
                                              {FindingKind::warp_deadlock, "warp-deadlock"},
                                              {FindingKind::warp_misuse, "warp-misuse"},
                                              {FindingKind::shared_memory_limit, "shared-memory-limit"},
                                              {FindingKind::launch_config, "launch-config"},
                                              {FindingKind::api_misuse, "api-misuse"},
                                          })

}  // namespace gpulab::grade
