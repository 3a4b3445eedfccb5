// Checks the bench program runs on the GPU, so that outputs of 2^28 elements
// are compared where they are, without copying them to the host: exact
// comparison, the float bound, absolute values (to run the checker on |inputs|)
// and a checksum that shows whether an implementation modified its inputs.
#pragma once
#include <cstddef>

namespace gpulab::bench {

struct DeviceComparison {
  unsigned long long bad = 0;         // elements that differ (or break the bound, or are NaN)
  unsigned long long first_bad = 0;   // index of the first one (valid when bad > 0)
  double worst = 0;                   // float: max |got - want| / (tolerance * scale) over the elements
  bool ok = false;                    // the comparison itself ran (no CUDA error)
};

// Element-wise equality of two device arrays of `count` elements of `element_size` bytes (1, 4 or 8).
DeviceComparison compare_exact(const void* got, const void* want, size_t count, size_t element_size);

// |got[i] - want[i]| <= tolerance * scale[i] for every i, NaN and infinities failing.
DeviceComparison compare_bounded(const float* got, const float* want, const float* scale, size_t count,
                                 double tolerance);

// data[i] = |data[i]| on the device.
bool make_absolute(float* data, size_t count);

// An order-sensitive 64-bit digest of `bytes` bytes of device memory (0 on a CUDA error).
unsigned long long device_checksum(const void* data, size_t bytes);

}  // namespace gpulab::bench
