// Exploit: result replay keyed on the input pointer alone. When called again
// with the pointer it saw last, it copies back the sum it kept; otherwise it
// computes the sum the slow, honest way. Right on every single call and very
// fast when the grader times repeated calls on the same buffers, which the
// speed test must catch: every timed call has new inputs in the same buffers,
// so the first replay returns a stale sum.
#include "reduction_slow_path.cuh"

namespace {
template <typename T>
void slow_sum(const T* in, T* out, int n) {
  for (int r = 0; r < kSlowRepeats; ++r) {
    cudaMemset(out, 0, sizeof(T));
    atomic_per_element<T><<<(n + 255) / 256, 256>>>(in, out, n);
  }
}

template <typename T>
struct PointerCache {
  const T* seen = nullptr;
  T* saved = nullptr;
};

template <typename T>
void replayed_sum(PointerCache<T>& cache, const T* in, T* out, int n) {
  if (in == cache.seen) {
    cudaMemcpy(out, cache.saved, sizeof(T), cudaMemcpyDeviceToDevice);
    return;
  }
  slow_sum(in, out, n);
  if (!cache.saved) cudaMalloc(&cache.saved, sizeof(T));
  cudaMemcpy(cache.saved, out, sizeof(T), cudaMemcpyDeviceToDevice);
  cache.seen = in;
}

PointerCache<int> int_cache;
PointerCache<float> float_cache;
}  // namespace

void reduce_sum_int(const int* in, int* out, int n) { replayed_sum(int_cache, in, out, n); }
void reduce_sum_float(const float* in, float* out, int n) { replayed_sum(float_cache, in, out, n); }
