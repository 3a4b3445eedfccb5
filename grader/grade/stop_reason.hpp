// What stopped a case's run before it ended by itself: one of the limits the
// grader sets (submission_runner.hpp) or the emulator's watchdog. Written as
// Gradescope's extra_data "stopped_by" with the words it has always had.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace gpulab::grade {

enum class StopReason { none, time_limit, cpu_time_limit, output_limit, file_size_limit, memory_limit, watchdog };

NLOHMANN_JSON_SERIALIZE_ENUM(StopReason, {
                                             {StopReason::none, ""},
                                             {StopReason::time_limit, "the time limit"},
                                             {StopReason::cpu_time_limit, "the CPU time limit"},
                                             {StopReason::output_limit, "the output limit"},
                                             {StopReason::file_size_limit, "the file size limit"},
                                             {StopReason::memory_limit, "the memory limit"},
                                             {StopReason::watchdog, "the emulator's watchdog"},
                                         })

// In words, for sentences ("was stopped by the time limit"); "" for none.
inline std::string to_string(StopReason r) { return nlohmann::json(r).get<std::string>(); }

}  // namespace gpulab::grade
