// Reading and checking a case's sizes and input distributions.
#include "lab/case_inputs.hpp"

#include <algorithm>

#include "data/value_generators.hpp"

namespace gpulab {
namespace {
using nlohmann::json;

bool is_integer(DType t) { return t != DType::float32 && t != DType::float64; }
bool is_byte(DType t) { return t == DType::uint8 || t == DType::int8; }

// The values an integer input can hold. A char input also takes byte values up to 255 (the text labs).
NumberRange holdable(DType t) {
  switch (t) {
    case DType::int32: return NumberRange::between(-2147483648.0, 2147483647.0).whole_numbers();
    case DType::uint32: return NumberRange::between(0, 4294967295.0).whole_numbers();
    case DType::uint8: return NumberRange::between(0, 255).whole_numbers();
    case DType::int8: return NumberRange::between(-128, 255).whole_numbers();
    default: return NumberRange::any();
  }
}

// "min" and "max" of a distribution (`fallback` when optional and absent), checked in `range`, min <= max.
std::pair<double, double> read_bounds(const JsonReader& r, const NumberRange& range,
                                      std::optional<std::pair<double, double>> fallback) {
  auto one = [&](const std::string& key, double dflt) {
    if (!fallback || r.has(key)) return r.number(key, range);
    return dflt;
  };
  const double lo = one("min", fallback ? fallback->first : 0), hi = one("max", fallback ? fallback->second : 0);
  if (lo > hi) {
    r.fail("min (" + JsonReader::describe(json(lo)) + ") is greater than max (" + JsonReader::describe(json(hi)) +
           "): swap them");
  }
  return {lo, hi};
}
}  // namespace

std::map<std::string, long long> read_sizes(const JsonReader& r, const PartSpec& part) {
  std::vector<std::string> names;
  for (const ParamSpec& p : part.params)
    if (p.role == ParamRole::size) names.push_back(p.name);
  const std::string example = names.empty() ? "an empty object {} (part '" + part.name + "' has no size params)"
                                            : "an object giving every size param of part '" + part.name + "' (" +
                                                  word_list(names, ", ") + "), e.g. {\"" + names[0] + "\": 1000}";
  r.expect_object(names, example);
  std::map<std::string, long long> sizes;
  for (const std::string& n : names)
    sizes[n] = r.at(n, "a whole number >= 1, the value of size param '" + n + "'").whole(NumberRange::at_least(1));
  return sizes;
}

std::map<std::string, json> read_inputs(const JsonReader& r, const PartSpec& part) {
  std::vector<std::string> names;
  for (const ParamSpec& p : part.params)
    if (p.role == ParamRole::input) names.push_back(p.name);
  r.expect_object(names, "an object with a value distribution for every input of part '" + part.name + "' (" +
                             word_list(names, ", ") + ")");
  std::map<std::string, json> inputs;
  for (const ParamSpec& p : part.params) {
    if (p.role != ParamRole::input) continue;
    inputs[p.name] = read_distribution(r.at(p.name,
                                            "its value distribution, e.g. {\"dist\": \"uniform_int\", \"min\": 0, "
                                            "\"max\": 9}"),
                                       p);
  }
  return inputs;
}

json read_distribution(const JsonReader& r, const ParamSpec& input) {
  std::vector<std::string> names;
  for (const ValueGenerator& g : value_generators()) names.push_back(g.name);
  const std::string example = "a value distribution such as {\"dist\": \"uniform_int\", \"min\": 0, \"max\": 9}";
  std::vector<std::string> every_key = {"dist"};  // first a misspelt key, then what "dist" allows
  for (const ValueGenerator& g : value_generators())
    for (const std::string& k : g.keys)
      if (std::find(every_key.begin(), every_key.end(), k) == every_key.end()) every_key.push_back(k);
  r.expect_object(every_key, example);
  const std::string dist = r.one_of("dist", names);
  const ValueGenerator& g = *std::find_if(value_generators().begin(), value_generators().end(),
                                          [&](const ValueGenerator& x) { return x.name == dist; });
  for (const auto& [key, value] : r.items()) {
    if (key == "dist" || std::find(g.keys.begin(), g.keys.end(), key) != g.keys.end()) continue;
    std::vector<std::string> quoted;
    for (const std::string& k : g.keys) quoted.push_back("'" + k + "'");
    value.fail("'" + dist + "' takes no '" + key + "': remove it" +
               (quoted.empty() ? "" : " (it takes " + word_list(quoted, " and ") + ")"));
  }

  const DType t = input.dtype;
  const std::string type = "input '" + input.name + "' is " + dtype_name(t);
  if ((dist == "bytes" || dist == "text") && !is_byte(t)) {
    r.at("dist", "").fail("'" + dist + "' makes bytes, but " + type + ": use it for char or uint8 inputs only");
  }
  if ((dist == "uniform_float" || dist == "mixed_magnitude") && is_integer(t)) {
    r.at("dist", "").fail("'" + dist + "' makes fractional values, but " + type + ": use 'uniform_int' or 'constant'");
  }
  if (dist == "uniform_int") {
    read_bounds(r, holdable(t).whole_numbers(), std::nullopt);
  } else if (dist == "uniform_float") {
    read_bounds(r, NumberRange::any(), std::nullopt);
  } else if (dist == "bytes") {
    read_bounds(r, NumberRange::between(0, 255).whole_numbers(), std::make_pair(0.0, 255.0));
  } else if (dist == "constant") {
    r.number("value", holdable(t));
  }
  return r.value();
}

}  // namespace gpulab
