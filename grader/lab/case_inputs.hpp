// The sizes and input value distributions of a case, as lab.json writes them
// in a part's "datasets", its "performance" (the timed case) and the "bench"
// object: read through JsonReader and checked against the part's params and
// the value generators that exist (data/value_generators.hpp), so that a
// mistake is found when the lab loads, not when the data is first generated.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "lab/json_reader.hpp"
#include "lab/lab_spec.hpp"

namespace gpulab {

// {"n": 1000, ...}: a whole number >= 1 for every size param of `part`, and no other key.
std::map<std::string, long long> read_sizes(const JsonReader& r, const PartSpec& part);

// {"in": {"dist": ...}, ...}: a distribution for every input of `part`, and no other key.
std::map<std::string, nlohmann::json> read_inputs(const JsonReader& r, const PartSpec& part);

// One input's distribution: a known "dist" with only its own keys, numbers in range
// (min <= max, whole numbers for integers), and values the input's dtype can hold.
nlohmann::json read_distribution(const JsonReader& r, const ParamSpec& input);

}  // namespace gpulab
