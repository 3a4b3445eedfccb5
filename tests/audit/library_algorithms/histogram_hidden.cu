// Library algorithm (histogram): Thrust's sort and reduce_by_key behind a namespace alias, a
// typedef'd policy and a wrapper function, so that the host functions name neither.
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/reduce.h>
#include <thrust/scatter.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

namespace algo = thrust;
typedef decltype(algo::device) on_gpu;

struct letter_bin {
  __host__ __device__ unsigned char operator()(char c) const {
    return c >= 'a' && c <= 'z' ? static_cast<unsigned char>((c - 'a') / 4) : 7;
  }
};

struct is_letter_bin {
  __host__ __device__ bool operator()(unsigned char key) const { return key < 7; }
};

// Sorts the keys, counts each run and writes each count to bins[key] where `wanted` says so.
template <class Wanted>
static void tally(thrust::device_vector<unsigned char>& keys, unsigned int* bins, Wanted wanted) {
  algo::sort(on_gpu{}, keys.begin(), keys.end());
  thrust::device_vector<unsigned char> unique(keys.size());
  thrust::device_vector<unsigned int> counts(keys.size());
  const auto ends = algo::reduce_by_key(on_gpu{}, keys.begin(), keys.end(), thrust::constant_iterator<unsigned int>(1),
                                        unique.begin(), counts.begin());
  algo::scatter_if(on_gpu{}, counts.begin(), ends.second, unique.begin(), unique.begin(),
                   thrust::device_ptr<unsigned int>(bins), wanted);
}

struct any_key {
  __host__ __device__ bool operator()(unsigned char) const { return true; }
};

void histogram_bytes(const unsigned char* data, unsigned int* bins, size_t n) {
  thrust::device_vector<unsigned char> keys(thrust::device_ptr<const unsigned char>(data),
                                            thrust::device_ptr<const unsigned char>(data) + n);
  tally(keys, bins, any_key{});
}

void histogram_text(const char* text, unsigned int* bins, size_t n) {
  thrust::device_vector<unsigned char> keys(n);
  algo::transform(on_gpu{}, text, text + n, keys.begin(), letter_bin{});
  tally(keys, bins, is_letter_bin{});
}
