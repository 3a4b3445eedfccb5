// CPU gold for the vector_add example lab: c = a + b computed in double and
// rounded once to float (exactly the correctly rounded float sum), and the
// error scale |a| + |b| of lab.json's float_bound check (factor 1: within
// 2^-24 * (|a| + |b|), i.e. at most one rounding).
#include <cmath>
#include <vector>

#include "gold/gold_registry.hpp"

namespace {
void gold_add(const gpulab::gold::Case& c, gpulab::gold::Expected& out) {
  const auto a = c.input("a").as<float>();
  const auto b = c.input("b").as<float>();
  std::vector<float> sum(a.size());
  std::vector<double> scale(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    sum[i] = static_cast<float>(static_cast<double>(a[i]) + static_cast<double>(b[i]));
    scale[i] = std::fabs(static_cast<double>(a[i])) + std::fabs(static_cast<double>(b[i]));
  }
  out.set("c", gpulab::NdArray::from(sum));
  out.set_scale("c", gpulab::NdArray::from(scale));
}
}  // namespace

GPULAB_GOLD("vector_add", "add", gold_add);
