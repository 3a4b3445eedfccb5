// device_checks.hpp on the emulator, where device memory is the host's: the
// same checks as device_checks.cu, as plain loops over the buffers (faster
// than emulating the kernels, and the results are the same). Host code may not
// touch device memory in the emulator, as on a GPU: each check opens it to
// this thread for its loops (gpulab/emu/harness_device_access.hpp).
#include <cmath>
#include <cstring>

#include "gpulab/emu/harness_device_access.hpp"
#include "harness/device_checks.hpp"

namespace gpulab::harness {
namespace {
void note_bad(DeviceComparison& r, size_t i) {
  if (r.bad++ == 0) r.first_bad = i;
}
}  // namespace

DeviceComparison compare_exact(const void* got, const void* want, size_t count, size_t element_size) {
  const emu::harness_device_access open;
  DeviceComparison r;
  const auto* g = static_cast<const unsigned char*>(got);
  const auto* w = static_cast<const unsigned char*>(want);
  for (size_t i = 0; i < count; ++i)
    if (std::memcmp(g + i * element_size, w + i * element_size, element_size) != 0) note_bad(r, i);
  r.ok = true;
  return r;
}

DeviceComparison compare_bounded(const float* got, const float* want, const float* scale, size_t count,
                                 double tolerance) {
  const emu::harness_device_access open;
  DeviceComparison r;
  for (size_t i = 0; i < count; ++i) {
    const double diff = std::fabs(static_cast<double>(got[i]) - static_cast<double>(want[i]));
    const double bound = tolerance * static_cast<double>(scale[i]);
    const bool finite = std::isfinite(got[i]) && std::isfinite(want[i]);
    if (!finite || diff > bound) note_bad(r, i);
    if (finite && diff > 0) r.worst = std::max(r.worst, bound > 0 ? diff / bound : INFINITY);
  }
  r.ok = true;
  return r;
}

bool make_absolute(float* data, size_t count) {
  const emu::harness_device_access open;
  for (size_t i = 0; i < count; ++i) data[i] = std::fabs(data[i]);
  return true;
}

unsigned long long device_checksum(const void* data, size_t bytes) {
  const emu::harness_device_access open;
  const auto* p = static_cast<const unsigned char*>(data);
  unsigned long long h = 0;
  for (size_t i = 0; i < bytes; ++i) {
    unsigned long long x = (static_cast<unsigned long long>(p[i]) + 1) * 0x9E3779B97F4A7C15ull + i;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    h += x ^ (x >> 33);
  }
  return h;
}

bool mix_inputs(void* dst, const void* a, const void* b, size_t count, size_t element_size, uint64_t seed) {
  const emu::harness_device_access open;
  if (element_size != 1 && element_size != 4 && element_size != 8) return false;
  auto* d = static_cast<unsigned char*>(dst);
  const auto* x = static_cast<const unsigned char*>(a);
  const auto* y = static_cast<const unsigned char*>(b);
  for (size_t i = 0; i < count; ++i) {
    const size_t at = i * element_size;
    std::memcpy(d + at, ((mix_hash(seed ^ i) & 1) ? y : x) + at, element_size);
  }
  return true;
}

}  // namespace gpulab::harness
