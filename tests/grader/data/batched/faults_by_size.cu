// One fault per chosen size, right everywhere else: n = 33 crashes the process (a null write on the
// host), n = 40009 never returns, n = 1023 leaves the device in an error state (a kernel writes out
// of bounds, far), n = 4095 calls exit(). Each costs its own case only: the part's other cases
// pass, run in the same or a fresh process.
#include <cstdlib>

#include "common_reduction.cuh"

template <typename T>
__global__ void wild_write(T* out) {
  out[1 << 28] = T(1);
}

template <typename T>
void sum_or_fault(const T* in, T* out, int n) {
  if (n == 33) *static_cast<volatile int*>(nullptr) = 1;
  if (n == 40009)
    for (volatile int spin = 0;; spin = spin + 1) {}
  if (n == 1023) wild_write<<<1, 1>>>(out);
  if (n == 4095) std::exit(3);
  sum_on_gpu(in, out, n);
}

void reduce_sum_int(const int* in, int* out, int n) { sum_or_fault(in, out, n); }
void reduce_sum_float(const float* in, float* out, int n) { sum_or_fault(in, out, n); }
