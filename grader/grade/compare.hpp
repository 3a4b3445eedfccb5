// Comparing a submission's output with the expected output: exact for
// integers, the lab's float bound for floats (NaN never passes). The message
// names the first bad index, expected vs got, the count, and a hint.
#pragma once
#include <string>

#include "data/nd_array.hpp"
#include "lab/lab_spec.hpp"

namespace gpulab::grade {

struct CompareOutcome {
  bool passed = false;
  size_t bad = 0;
  size_t total = 0;
  size_t first_bad = 0;
  std::string message;  // empty when passed
};

// `poisoned`: the output was filled with the poison value before the call (else zeros).
CompareOutcome compare_output(const CheckSpec& check, const std::string& name, const NdArray& expected,
                              const NdArray& got, const NdArray* scale, bool poisoned = true);

}  // namespace gpulab::grade
