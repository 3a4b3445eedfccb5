// Element-wise comparison and the feedback sentence.
#include "compare.hpp"

#include <cmath>
#include <cstring>
#include <span>

#include <fmt/format.h>

namespace gpulab::grade {
namespace {
double value_at(const NdArray& a, size_t i) {
  switch (a.dtype()) {
    case DType::int32: return a.as<int32_t>()[i];
    case DType::uint32: return a.as<uint32_t>()[i];
    case DType::float32: return a.as<float>()[i];
    case DType::float64: return a.as<double>()[i];
    case DType::uint8: return a.as<uint8_t>()[i];
    case DType::int8: return a.as<int8_t>()[i];
  }
  return 0;
}

bool is_poison(const NdArray& a, size_t i) {
  switch (a.dtype()) {
    case DType::float32: return std::isnan(a.as<float>()[i]);
    case DType::int32: return a.as<int32_t>()[i] == -1;
    case DType::uint32: return a.as<uint32_t>()[i] == 0xFFFFFFFFu;
    default: return false;
  }
}

constexpr double kEps = 0x1p-24;

void note_bad(CompareOutcome& r, size_t i) {
  if (r.bad++ == 0) r.first_bad = i;
}

// The float bound, element by element on typed spans (the hot loop of a large case).
template <class T>
void count_bounded(CompareOutcome& r, std::span<const T> expected, std::span<const T> got, const NdArray* scale,
                   double factor) {
  const double* s = scale ? scale->as<double>().data() : nullptr;
  const size_t n = expected.size();
  for (size_t i = 0; i < n; ++i) {
    const double g = got[i], e = expected[i];
    if (g == e) continue;  // NaN never equals
    const double bound = factor * kEps * (s ? s[i] : std::fabs(e));
    if (std::isnan(g) || !(std::fabs(g - e) <= bound)) note_bad(r, i);
  }
}

// One element, as the loops above judge it (for the feedback's recount of the wrong elements).
bool element_ok(const CheckSpec& check, bool floating, const NdArray& expected, const NdArray& got,
                const NdArray* scale, size_t i) {
  if (!floating || check.kind == "exact") {
    const size_t width = dtype_size(got.dtype());
    return std::memcmp(got.data() + i * width, expected.data() + i * width, width) == 0 ||
           (floating && value_at(got, i) == value_at(expected, i));
  }
  const double g = value_at(got, i), e = value_at(expected, i);
  const double bound = check.factor * kEps * (scale ? scale->as<double>()[i] : std::fabs(e));
  return !std::isnan(g) && (g == e || std::fabs(g - e) <= bound);
}

std::string show(const NdArray& a, size_t i) {
  if (a.dtype() == DType::float32 || a.dtype() == DType::float64) {
    const double v = value_at(a, i);
    if (std::isnan(v)) return "NaN";
    return fmt::format("{:.9g}", v);
  }
  return fmt::format("{:.0f}", value_at(a, i));
}

std::string index_text(const std::string& name, const NdArray& a, size_t i) {
  if (a.shape().size() == 2) {
    return name + "[" + std::to_string(i / a.shape()[1]) + "][" + std::to_string(i % a.shape()[1]) + "]";
  }
  return name + "[" + std::to_string(i) + "]";
}
}  // namespace

CompareOutcome compare_output(const CheckSpec& check, const std::string& name, const NdArray& expected,
                              const NdArray& got, const NdArray* scale, bool poisoned_before) {
  CompareOutcome r;
  r.total = expected.size();
  if (got.dtype() != expected.dtype() || got.size() != expected.size()) {
    r.bad = r.total;
    r.message = "output '" + name + "' has the wrong type or size";
    return r;
  }
  const bool floating = expected.dtype() == DType::float32 || expected.dtype() == DType::float64;
  if (floating && check.kind != "exact") {
    if (expected.dtype() == DType::float32) {
      count_bounded(r, expected.as<float>(), got.as<float>(), scale, check.factor);
    } else {
      count_bounded(r, expected.as<double>(), got.as<double>(), scale, check.factor);
    }
  } else if (std::memcmp(got.data(), expected.data(), got.byte_size()) != 0) {
    // Bit for bit (floats also as values, so that +0 == -0); the common all-equal case is one memcmp.
    const size_t width = dtype_size(got.dtype());
    for (size_t i = 0; i < r.total; ++i) {
      bool ok = std::memcmp(got.data() + i * width, expected.data() + i * width, width) == 0;
      if (floating && !ok) ok = value_at(got, i) == value_at(expected, i);
      if (!ok) note_bad(r, i);
    }
  }
  size_t poisoned = 0;
  if (poisoned_before && r.bad > 0) {
    // Only when something is wrong: how many of the wrong elements still hold the poison.
    for (size_t i = r.first_bad; i < r.total; ++i) {
      if (!element_ok(check, floating, expected, got, scale, i)) poisoned += is_poison(got, i);
    }
  }
  r.passed = r.bad == 0;
  if (r.passed) return r;

  const size_t i = r.first_bad;
  std::string m = index_text(name, expected, i) + " = " + show(got, i) + ", expected " + show(expected, i) + "; " +
                  std::to_string(r.bad) + " of " + std::to_string(r.total) + " wrong";
  if (poisoned == r.bad) {
    m += "; every wrong element holds the poison value the grader wrote before the call (NaN / all bits set): "
         "those elements were never written (or were computed from uninitialised shared memory, which the emulator "
         "also fills with that pattern)";
  } else if (poisoned > 0) {
    m += "; " + std::to_string(poisoned) + " of them were never written (still the poison value)";
  }
  // Wrong elements only at the end: the last, partial block of some block size.
  const size_t n = r.total;
  for (size_t block : {32u, 64u, 128u, 256u, 512u, 1024u}) {
    const size_t full = n / block * block;
    if (n % block != 0 && i >= full && full > 0) {
      m += "; the first wrong element is past the last full block of " + std::to_string(block) +
           " threads (every wrong element is in the last, partial block): check your bounds test, and how a "
           "partial last block, or the step that combines blocks, is handled";
      break;
    }
  }
  if (r.bad == r.total && r.total > 1 && poisoned == 0) m += "; every element is wrong";
  if (r.total == 1 && floating && check.kind == "float_bound" && !std::isnan(value_at(got, 0))) {
    const double bound = check.factor * kEps * (scale ? scale->as<double>()[0] : std::fabs(value_at(expected, 0)));
    m += fmt::format(" (off by {:.6g}; the tolerance here is {:.3g})", value_at(got, 0) - value_at(expected, 0), bound);
  }
  r.message = m;
  return r;
}

}  // namespace gpulab::grade
