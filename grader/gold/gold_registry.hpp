// The registry of CPU gold implementations: each lab's reference/<lab>/gold.cpp
// registers one function per part with GPULAB_GOLD; datagen and validate look
// them up by (lab, part). Gold functions compute in double precision or exact
// integers and, for float parts, the per-element error scale of the check.
#pragma once
#include <functional>
#include <map>
#include <stdexcept>
#include <string>

#include "data/nd_array.hpp"

namespace gpulab::gold {

// One test case: named inputs and sizes, as the harness passes them to the host function.
struct Case {
  std::map<std::string, NdArray> inputs;
  std::map<std::string, long long> sizes;

  const NdArray& input(const std::string& name) const;
  long long size(const std::string& name) const;
};

// What the gold function produces: expected outputs and, for float_bound checks, scales.
struct Expected {
  std::map<std::string, NdArray> outputs;
  std::map<std::string, NdArray> scales;  // float64, one per output element

  void set(const std::string& output, NdArray value) { outputs[output] = std::move(value); }
  void set_scale(const std::string& output, NdArray scale) { scales[output] = std::move(scale); }
};

using GoldFunction = std::function<void(const Case&, Expected&)>;

void register_gold(const std::string& lab, const std::string& part, GoldFunction fn);
// Throws std::runtime_error naming the lab and part when none is registered.
const GoldFunction& find_gold(const std::string& lab, const std::string& part);

struct Registrar {
  Registrar(const char* lab, const char* part, GoldFunction fn) { register_gold(lab, part, std::move(fn)); }
};

}  // namespace gpulab::gold

#define GPULAB_GOLD_CONCAT2(a, b) a##b
#define GPULAB_GOLD_CONCAT(a, b) GPULAB_GOLD_CONCAT2(a, b)
#define GPULAB_GOLD(lab, part, fn) \
  static ::gpulab::gold::Registrar GPULAB_GOLD_CONCAT(gpulab_gold_registrar_, __LINE__)(lab, part, fn)
