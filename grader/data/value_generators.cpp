// The value distributions.
#include "value_generators.hpp"

#include <cmath>
#include <random>
#include <stdexcept>

namespace gpulab {
namespace {
template <class F> void fill(NdArray& a, F value) {
  switch (a.dtype()) {
    case DType::int32:
      for (auto& x : a.as<int32_t>()) x = static_cast<int32_t>(value());
      break;
    case DType::uint32:
      for (auto& x : a.as<uint32_t>()) x = static_cast<uint32_t>(value());
      break;
    case DType::float32:
      for (auto& x : a.as<float>()) x = static_cast<float>(value());
      break;
    case DType::float64:
      for (auto& x : a.as<double>()) x = static_cast<double>(value());
      break;
    case DType::uint8:
      for (auto& x : a.as<uint8_t>()) x = static_cast<uint8_t>(value());
      break;
    case DType::int8:
      for (auto& x : a.as<int8_t>()) x = static_cast<int8_t>(value());
      break;
  }
}

// Mixed prose: words in lower and upper case, digits, punctuation, newlines and a
// few bytes >= 128 (UTF-8 letters), as real text files contain.
void fill_text(NdArray& a, std::mt19937_64& rng) {
  static const char* words[] = {"the",    "warp",          "Block",     "GPU",  "kernel",   "shared", "memory",
                                "Thread", "atomic",        "histogram", "CUDA", "parallel", "zebra",  "quick",
                                "brown",  "fox",           "jumps",     "over", "lazy",     "dog",    "x",
                                "yield",  "PRIVATIZATION", "coalesced", "bank", "conflict"};
  static const char* punct[] = {" ", " ", " ", " ", ", ", ". ", "; ", "! ", "? ", "\n", " - ", " (", ") ", "\"", "'"};
  static const char* extra[] = {"\xc3\xa9", "\xc3\xa0", "\xc3\xa7", "\xe2\x82\xac", "\xc3\x9f", "\t"};
  auto bytes = a.as<uint8_t>();
  size_t i = 0;
  auto put = [&](const char* s) {
    for (; *s && i < bytes.size(); ++s) bytes[i++] = static_cast<uint8_t>(*s);
  };
  std::uniform_int_distribution<int> pick(0, 99);
  while (i < bytes.size()) {
    const int r = pick(rng);
    if (r < 70) put(words[rng() % (sizeof words / sizeof *words)]);
    else if (r < 80) put(std::to_string(rng() % 10000).c_str());
    else if (r < 85) put(extra[rng() % (sizeof extra / sizeof *extra)]);
    put(punct[rng() % (sizeof punct / sizeof *punct)]);
  }
}
}  // namespace

const std::vector<ValueGenerator>& value_generators() {
  static const std::vector<ValueGenerator> generators = {
      {"uniform_int", {"min", "max"}}, {"uniform_float", {"min", "max"}}, {"constant", {"value"}},
      {"mixed_magnitude", {}},         {"bytes", {"min", "max"}},         {"text", {}},
  };
  return generators;
}

uint64_t derive_seed(uint64_t base, const std::string& what) {
  uint64_t h = base ^ 0x9E3779B97F4A7C15ull;
  for (unsigned char c : what) {
    h ^= c;
    h *= 0x100000001B3ull;
    h ^= h >> 29;
  }
  return h;
}

NdArray generate_values(const nlohmann::json& d, DType dtype, std::vector<size_t> shape, uint64_t seed) {
  NdArray a(dtype, std::move(shape));
  std::mt19937_64 rng(seed);
  const std::string dist = d.at("dist").get<std::string>();
  auto number = [&](const char* key, double fallback) { return d.value(key, fallback); };
  if (dist == "uniform_int" || dist == "bytes") {
    const long long lo = static_cast<long long>(number("min", 0)), hi = static_cast<long long>(number("max", 255));
    if (lo > hi) throw std::invalid_argument(dist + ": min must not exceed max");
    std::uniform_int_distribution<long long> u(lo, hi);
    fill(a, [&] { return u(rng); });
  } else if (dist == "uniform_float") {
    const double lo = number("min", -1), hi = number("max", 1);
    if (!(lo <= hi)) throw std::invalid_argument("uniform_float: min must not exceed max");
    std::uniform_real_distribution<double> u(lo, hi);
    fill(a, [&] { return u(rng); });
  } else if (dist == "constant") {
    if (!d.contains("value")) throw std::invalid_argument("constant: needs a 'value'");
    const double v = d.at("value").get<double>();
    fill(a, [&] { return v; });
  } else if (dist == "mixed_magnitude") {
    std::uniform_real_distribution<double> exponent(-3, 3), mantissa(1, 10);
    std::bernoulli_distribution sign(0.5);
    fill(a, [&] { return (sign(rng) ? -1.0 : 1.0) * mantissa(rng) * std::pow(10.0, std::floor(exponent(rng))); });
  } else if (dist == "text") {
    if (dtype != DType::uint8 && dtype != DType::int8)
      throw std::invalid_argument("text: the input must be char or uint8");
    fill_text(a, rng);
  } else {
    throw std::invalid_argument("unknown distribution '" + dist +
                                "' (use uniform_int, uniform_float, constant, mixed_magnitude, bytes or text)");
  }
  return a;
}

}  // namespace gpulab
