// Exploit: result replay keyed on a host-side fingerprint. The key is the
// input pointer, n and 16 input values sampled at fixed places and copied to
// the host; up to 8 keys are remembered (so a rotation among a few input sets
// would be replayed too). On a hit the cached sum is copied to the output; on
// a miss the sum is computed the slow, honest way and remembered. The speed
// test must give it no speed points: every timed call has inputs no earlier
// call saw, so it never hits, and its honest path is slow.
#include <cstring>

#include "reduction_slow_path.cuh"

namespace {
template <typename T>
void slow_sum(const T* in, T* out, int n) {
  for (int r = 0; r < kSlowRepeats; ++r) {
    cudaMemset(out, 0, sizeof(T));
    atomic_per_element<T><<<(n + 255) / 256, 256>>>(in, out, n);
  }
}

constexpr int kSamples = 16;
constexpr int kEntries = 8;

template <typename T>
struct Key {
  const void* pointer = nullptr;
  int n = -1;
  T samples[kSamples] = {};
  bool operator==(const Key& o) const {
    return pointer == o.pointer && n == o.n && std::memcmp(samples, o.samples, sizeof samples) == 0;
  }
};

template <typename T>
struct Cache {
  Key<T> keys[kEntries];
  T* sums = nullptr;  // one device value per entry
  int used = 0, next = 0;
};

template <typename T>
void replayed_sum(Cache<T>& cache, const T* in, T* out, int n) {
  Key<T> key;
  key.pointer = in;
  key.n = n;
  for (int s = 0; s < kSamples; ++s) {
    cudaMemcpy(&key.samples[s], in + static_cast<long long>(s) * n / kSamples, sizeof(T), cudaMemcpyDeviceToHost);
  }
  if (!cache.sums) cudaMalloc(&cache.sums, kEntries * sizeof(T));
  for (int e = 0; e < cache.used; ++e) {
    if (cache.keys[e] == key) {  // seen before: replay
      cudaMemcpy(out, cache.sums + e, sizeof(T), cudaMemcpyDeviceToDevice);
      return;
    }
  }
  slow_sum(in, out, n);
  const int e = cache.next;
  cache.next = (cache.next + 1) % kEntries;
  if (cache.used < kEntries) ++cache.used;
  cache.keys[e] = key;
  cudaMemcpy(cache.sums + e, out, sizeof(T), cudaMemcpyDeviceToDevice);
}

Cache<int> int_cache;
Cache<float> float_cache;
}  // namespace

void reduce_sum_int(const int* in, int* out, int n) { replayed_sum(int_cache, in, out, n); }
void reduce_sum_float(const float* in, float* out, int n) { replayed_sum(float_cache, in, out, n); }
