// The timed case of a part, as the speed score needs it (DESIGN.md, "Timing
// and performance score"): no call sees inputs an earlier call saw, and every
// call's output is checked.
//   - Before each call (warm-up ones included), outside the measurement, every
//     input is mixed on the device, element by element, from two input sets
//     of the part's distribution (the timed case's and the recheck case's),
//     the choice of each element drawn from fresh randomness taken at that
//     moment (fresh_entropy.hpp). A submission cannot know the next inputs, so
//     a cache of earlier results, whatever its key, returns wrong outputs.
//   - After each call, outside the measurement, the lab's checker
//     (checker_registry.hpp) computes the trusted result of the same inputs on
//     the device, and the outputs are compared there: exactly for integers,
//     within the part's float bound for floats (tolerance times the checker's
//     result on |inputs|). The first wrong call stops the runs and says which.
//   - The L2 flush and the reset of persisting L2 lines are timed_runs.hpp's.
// Without a checker the inputs still change from call to call, and the result
// says the outputs were not verified.
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "harness/device_buffers.hpp"
#include "harness/harness_binding.hpp"

namespace gpulab::harness {

struct TimedCaseOutcome {
  nlohmann::json timing;        // as result.json's "timing" (median, spread, runs, samples, ...)
  nlohmann::json verification;  // {"status": "checked"|"unavailable"|"tampered", "calls_checked": n, "reason": ...}
  std::string error;            // a CUDA error, a wrong timed output or a harness problem, in words
  std::string status;           // "" when the runs completed; else "cuda_error", "timed_output_wrong", "harness_error"
};

// `timing` is the request's "timing" object: the options of timed_runs.hpp, "alternates"
// ({input name: .npy file of the second input set}), "seed" (a 64-bit number as a decimal
// string, mixed into every call's randomness) and "check" ({"exact": bool, "tolerance": t}).
// The inputs in `buffers` hold the first set when it is called; afterwards they hold the
// last call's inputs.
TimedCaseOutcome run_timed_case(const PartBinding& binding, const Call& call, std::vector<DeviceBuffer>& buffers,
                                const nlohmann::json& timing);

}  // namespace gpulab::harness
