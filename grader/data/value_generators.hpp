// Input values for dataset cases, from the distributions lab.json names
// (uniform_int, uniform_float, constant, mixed_magnitude, bytes, text).
// Deterministic: the same seed always gives the same bytes.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "nd_array.hpp"

namespace gpulab {

// The distributions generate_values knows: each "dist" name and the keys its object may have
// besides "dist" (lab.json is checked against this list when a lab loads: lab/case_inputs.hpp).
struct ValueGenerator {
  std::string name;
  std::vector<std::string> keys;
};
const std::vector<ValueGenerator>& value_generators();

// Throws std::invalid_argument naming the distribution and what is wrong with it.
NdArray generate_values(const nlohmann::json& distribution, DType dtype, std::vector<size_t> shape, uint64_t seed);

// A seed for one input of one case, mixed from the lab seed and the case's identity.
uint64_t derive_seed(uint64_t base, const std::string& what);

}  // namespace gpulab
