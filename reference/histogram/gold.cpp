// CPU gold implementation of the histogram lab: exact integer counts that the
// datagen stores as expected outputs. Both parts are checked exactly (uint32),
// so no error scale is needed.
#include <cstdint>
#include <vector>

#include "gold/gold_registry.hpp"

namespace {

// Part "text": 7 bins of four lower-case letters (a-d, e-h, i-l, m-p, q-t,
// u-x, y-z). Every other byte (upper case, digits, punctuation, white space,
// bytes >= 128) is ignored. The input is stored as int8 ("char"), so each byte
// is read back as unsigned before it is compared with 'a'..'z'.
void text_gold(const gpulab::gold::Case& c, gpulab::gold::Expected& out) {
  const auto text = c.input("text").as<int8_t>();
  std::vector<uint32_t> bins(7, 0);
  for (const int8_t ch : text) {
    const unsigned v = static_cast<uint8_t>(ch);
    if (v >= 'a' && v <= 'z') ++bins[(v - 'a') / 4];
  }
  out.set("bins", gpulab::NdArray::from(bins));
}

// Part "bytes": one bin per byte value.
void bytes_gold(const gpulab::gold::Case& c, gpulab::gold::Expected& out) {
  const auto data = c.input("data").as<uint8_t>();
  std::vector<uint32_t> bins(256, 0);
  for (const uint8_t v : data) ++bins[v];
  out.set("bins", gpulab::NdArray::from(bins));
}

}  // namespace

GPULAB_GOLD("histogram", "text", text_gold);
GPULAB_GOLD("histogram", "bytes", bytes_gold);
