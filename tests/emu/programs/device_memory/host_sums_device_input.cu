// A reduction lab submission that sums its input on the CPU straight from device memory and writes
// the sum with a kernel: on a GPU each case crashes; graded on the emulator, each case must fail
// as a crash whose feedback says what the host code did.
#include <cuda_runtime.h>

__global__ void put(int* out, int v) { *out = v; }
__global__ void putf(float* out, float v) { *out = v; }

void reduce_sum_int(const int* in, int* out, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += in[i];
  put<<<1, 1>>>(out, s);
}
void reduce_sum_float(const float* in, float* out, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += in[i];
  putf<<<1, 1>>>(out, static_cast<float>(s));
}
