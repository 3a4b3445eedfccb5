// One dataset case of a part, as the harness runs it: reads the case's inputs
// (.npy), puts them in device memory, poisons the outputs, calls the student's
// host function, and writes the outputs and the case's result.json (CUDA
// errors, kernel launches, modified inputs, guard-zone overruns, the bytes
// that reached host memory). For the performance case it then times the
// function on inputs that change from call to call (timed_case.hpp) and calls
// it once more on the recheck inputs. The buffers are freed at the end, so
// that the next case of the same process starts afresh.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "harness/harness_binding.hpp"

namespace gpulab::harness {

struct CaseOutcome {
  // The device or the runtime may be in an error state after this case: the next case needs a
  // fresh process.
  bool needs_fresh_process = false;
};

// `request` is the whole request (the part, "no_guard_zones", "timing", "recheck"); `one` is the
// case ({"params": [...], "output_dir": ..., "result": ...}).
CaseOutcome run_case(const PartBinding& binding, const nlohmann::json& request, const nlohmann::json& one);

// Writes `result` to `path` whole (the grader reads it as untrusted input).
void write_result(const std::string& path, const nlohmann::json& result);

// The device's identity for result.json: name, UUID, L2, multiprocessors, clock.
nlohmann::json device_identity();

}  // namespace gpulab::harness
