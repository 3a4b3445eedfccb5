// Checks and input preparation that run where the data is (on the GPU, or in
// the emulator's device memory), so that outputs of 2^28 elements are checked
// without copying them to the host: exact comparison, the float bound,
// absolute values (to run a checker on |inputs| for the error scale), a
// checksum that shows whether inputs were modified, and the element-wise mix
// of two input sets that gives every timed call inputs no earlier call saw.
// Used by the grader's harness and by `gpulab bench`.
#pragma once
#include <cstddef>
#include <cstdint>

namespace gpulab::harness {

struct DeviceComparison {
  unsigned long long bad = 0;        // elements that differ (or break the bound, or are NaN)
  unsigned long long first_bad = 0;  // index of the first one (valid when bad > 0)
  double worst = 0;                  // float: max |got - want| / (tolerance * scale) over the elements
  bool ok = false;                   // the comparison itself ran (no CUDA error)
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

// dst[i] = a[i] or b[i], chosen per element by bit 0 of a hash of (seed, i): every element
// keeps its input distribution (both sets are drawn from it), the values change from one
// seed to the next, and the result cannot be derived from either set alone.
bool mix_inputs(void* dst, const void* a, const void* b, size_t count, size_t element_size, uint64_t seed);

// The hash behind mix_inputs (splitmix64's finaliser), the same on the host and the device.
#if defined(__CUDACC__)
__host__ __device__
#endif
    inline uint64_t
    mix_hash(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

}  // namespace gpulab::harness
