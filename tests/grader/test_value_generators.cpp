// Tests of the dataset value distributions (grader/data/value_generators):
// determinism, ranges, and the character mix of generated text.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "data/value_generators.hpp"

using gpulab::DType;
using gpulab::NdArray;
using nlohmann::json;

namespace {
bool same_bytes(const NdArray& a, const NdArray& b) {
  return a.byte_size() == b.byte_size() && std::memcmp(a.data(), b.data(), a.byte_size()) == 0;
}
}  // namespace

TEST_CASE("values: the same seed gives the same bytes, another seed other bytes", "[values]") {
  struct Dist {
    const char* json_text;
    DType dtype;
  };
  const Dist d = GENERATE(Dist{R"({"dist": "uniform_int", "min": -100, "max": 100})", DType::int32},
                          Dist{R"({"dist": "uniform_float", "min": -1, "max": 1})", DType::float32},
                          Dist{R"({"dist": "mixed_magnitude"})", DType::float32},
                          Dist{R"({"dist": "bytes", "min": 0, "max": 255})", DType::uint8},
                          Dist{R"({"dist": "text"})", DType::int8});
  CAPTURE(d.json_text);
  const json dist = json::parse(d.json_text);
  const NdArray a = gpulab::generate_values(dist, d.dtype, {4096}, 1234);
  const NdArray b = gpulab::generate_values(dist, d.dtype, {4096}, 1234);
  const NdArray c = gpulab::generate_values(dist, d.dtype, {4096}, 1235);
  CHECK(same_bytes(a, b));
  CHECK_FALSE(same_bytes(a, c));
}

TEST_CASE("values: derive_seed is deterministic and separates cases and inputs", "[values]") {
  CHECK(gpulab::derive_seed(4, "matmul/tiled-tiny-1/a") == gpulab::derive_seed(4, "matmul/tiled-tiny-1/a"));
  CHECK(gpulab::derive_seed(4, "matmul/tiled-tiny-1/a") != gpulab::derive_seed(4, "matmul/tiled-tiny-1/b"));
  CHECK(gpulab::derive_seed(4, "matmul/tiled-tiny-1/a") != gpulab::derive_seed(5, "matmul/tiled-tiny-1/a"));
  CHECK(gpulab::derive_seed(4, "matmul/tiled-tiny-1/a") != gpulab::derive_seed(4, "matmul/tiled-tiny-2/a"));
}

TEST_CASE("values: uniform_int stays in [min, max] and reaches both ends", "[values]") {
  const NdArray a =
      gpulab::generate_values(json::parse(R"({"dist": "uniform_int", "min": -5, "max": 7})"), DType::int32, {10000}, 7);
  const auto v = a.as<int32_t>();
  CHECK(*std::min_element(v.begin(), v.end()) == -5);
  CHECK(*std::max_element(v.begin(), v.end()) == 7);
  CHECK(a.shape() == std::vector<size_t>{10000});
}

TEST_CASE("values: uniform_float stays in [min, max]", "[values]") {
  const NdArray a = gpulab::generate_values(json::parse(R"({"dist": "uniform_float", "min": -2.5, "max": 3})"),
                                            DType::float32, {100, 100}, 7);
  const auto v = a.as<float>();
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  CHECK(*lo >= -2.5f);
  CHECK(*hi <= 3.0f);
  CHECK(*lo < -2.4f);  // spread over the range
  CHECK(*hi > 2.9f);
  CHECK(a.shape() == std::vector<size_t>{100, 100});
}

TEST_CASE("values: bytes stay in [min, max]", "[values]") {
  const NdArray a =
      gpulab::generate_values(json::parse(R"({"dist": "bytes", "min": 10, "max": 20})"), DType::uint8, {5000}, 3);
  const auto v = a.as<uint8_t>();
  CHECK(*std::min_element(v.begin(), v.end()) == 10);
  CHECK(*std::max_element(v.begin(), v.end()) == 20);

  // Without min/max: every byte value 0..255 can occur.
  const NdArray all = gpulab::generate_values(json::parse(R"({"dist": "bytes"})"), DType::uint8, {20000}, 3);
  const auto w = all.as<uint8_t>();
  CHECK(*std::min_element(w.begin(), w.end()) == 0);
  CHECK(*std::max_element(w.begin(), w.end()) == 255);
}

TEST_CASE("values: constant fills every element with the value", "[values]") {
  const NdArray f =
      gpulab::generate_values(json::parse(R"({"dist": "constant", "value": 2.5})"), DType::float32, {3, 7}, 1);
  for (float x : f.as<float>()) CHECK(x == 2.5f);
  const NdArray i = gpulab::generate_values(json::parse(R"({"dist": "constant", "value": -3})"), DType::int32, {11}, 1);
  for (int32_t x : i.as<int32_t>()) CHECK(x == -3);
  CHECK_THROWS_WITH(gpulab::generate_values(json::parse(R"({"dist": "constant"})"), DType::int32, {2}, 1),
                    Catch::Contains("constant") && Catch::Contains("value"));
}

TEST_CASE("values: mixed_magnitude spans 1e-3..1e4 in magnitude with both signs", "[values]") {
  const NdArray a = gpulab::generate_values(json::parse(R"({"dist": "mixed_magnitude"})"), DType::float32, {10000}, 11);
  size_t negative = 0, positive = 0, tiny = 0, huge = 0;
  for (float x : a.as<float>()) {
    const float m = std::fabs(x);
    CHECK(m >= 1e-3f);
    CHECK(m < 1e4f);
    negative += x < 0;
    positive += x > 0;
    tiny += m < 1e-2f;
    huge += m >= 1e2f;
  }
  CHECK(negative > 1000);
  CHECK(positive > 1000);
  CHECK(tiny > 100);  // the small magnitudes really occur
  CHECK(huge > 100);  // and so do the large ones
}

TEST_CASE("values: text mixes cases, digits, punctuation, newlines and bytes >= 128", "[values]") {
  const DType t = GENERATE(DType::uint8, DType::int8);
  const NdArray a = gpulab::generate_values(json::parse(R"({"dist": "text"})"), t, {4096}, 5);
  bool upper = false, lower = false, digit = false, punct = false, newline = false, high = false;
  for (size_t i = 0; i < a.size(); ++i) {
    const unsigned char c = a.data()[i];
    upper |= std::isupper(c) != 0;
    lower |= std::islower(c) != 0;
    digit |= std::isdigit(c) != 0;
    punct |= c < 128 && std::ispunct(c) != 0;
    newline |= c == '\n';
    high |= c >= 128;
  }
  CHECK(upper);
  CHECK(lower);
  CHECK(digit);
  CHECK(punct);
  CHECK(newline);
  CHECK(high);
  CHECK_THROWS_WITH(gpulab::generate_values(json::parse(R"({"dist": "text"})"), DType::float32, {8}, 5),
                    Catch::Contains("text"));
}

TEST_CASE("values: an unknown distribution is an error naming it", "[values]") {
  CHECK_THROWS_AS(gpulab::generate_values(json::parse(R"({"dist": "gaussian"})"), DType::float32, {4}, 1),
                  std::invalid_argument);
  CHECK_THROWS_WITH(gpulab::generate_values(json::parse(R"({"dist": "gaussian"})"), DType::float32, {4}, 1),
                    Catch::Contains("unknown distribution 'gaussian'"));
  CHECK_THROWS_WITH(
      gpulab::generate_values(json::parse(R"({"dist": "uniform_int", "min": 5, "max": 1})"), DType::int32, {4}, 1),
      Catch::Contains("uniform_int") && Catch::Contains("min"));
}
