// Exploit: result replay keyed on a fingerprint that never leaves the device.
// A one-warp kernel hashes n, the input pointer and 16 sampled input values
// and compares the hash with the one kept from the last call; the slow,
// honest kernels that follow return at once on a hit, and a last kernel then
// writes the kept sum. The host never waits or reads anything back, so the
// replay costs a few tiny launches. The speed test must give it no speed
// points: every timed call has new inputs, so the hash never matches.
#include "reduction_slow_path.cuh"

namespace {
constexpr int kSamples = 16;

template <typename T>
struct DeviceCache {
  unsigned long long key;  // the fingerprint of the last call's inputs (0: none yet)
  unsigned long long now;  // this call's fingerprint
  int hit;
  T sum;
};

template <typename T>
__global__ void fingerprint(const T* in, int n, DeviceCache<T>* cache) {
  __shared__ unsigned long long part[kSamples];
  const int s = threadIdx.x;
  if (s < kSamples) {
    T v = in[static_cast<long long>(s) * n / kSamples];
    unsigned long long bits = 0;
    memcpy(&bits, &v, sizeof v);
    part[s] = (bits + 0x9E3779B97F4A7C15ull * (s + 1)) * 0xBF58476D1CE4E5B9ull;
  }
  __syncthreads();
  if (s == 0) {
    unsigned long long h = static_cast<unsigned long long>(n) ^ reinterpret_cast<unsigned long long>(in);
    for (int k = 0; k < kSamples; ++k) h = (h ^ part[k]) * 0x94D049BB133111EBull;
    cache->now = h | 1;
    cache->hit = cache->now == cache->key;
  }
}

template <typename T>
__global__ void guarded_clear(T* out, const DeviceCache<T>* cache) {
  if (!cache->hit) *out = 0;
}

template <typename T>
__global__ void guarded_atomic_sum(const T* in, T* out, int n, const DeviceCache<T>* cache) {
  if (cache->hit) return;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(out, in[i]);
}

template <typename T>
__global__ void replay_or_remember(T* out, DeviceCache<T>* cache) {
  if (cache->hit) {
    *out = cache->sum;
  } else {
    cache->sum = *out;
    cache->key = cache->now;
  }
}

template <typename T>
void replayed_sum(DeviceCache<T>*& cache, const T* in, T* out, int n) {
  if (!cache) {
    cudaMalloc(&cache, sizeof *cache);
    cudaMemset(cache, 0, sizeof *cache);
  }
  fingerprint<T><<<1, 32>>>(in, n, cache);
  for (int r = 0; r < kSlowRepeats; ++r) {
    guarded_clear<T><<<1, 1>>>(out, cache);
    guarded_atomic_sum<T><<<1024, 256>>>(in, out, n, cache);
  }
  replay_or_remember<T><<<1, 1>>>(out, cache);
}

DeviceCache<int>* int_cache = nullptr;
DeviceCache<float>* float_cache = nullptr;
}  // namespace

void reduce_sum_int(const int* in, int* out, int n) { replayed_sum(int_cache, in, out, n); }
void reduce_sum_float(const float* in, float* out, int n) { replayed_sum(float_cache, in, out, n); }
