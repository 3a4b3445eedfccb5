// Hostile: the host function ends the process with exit(0), so the harness
// never checks anything (a way to hide a crash or skip the checks).
#include "hostile_common.cuh"

void reduce_sum_int(const int* in, int* out, int n) {
  hostile_correct_int(in, out, n);
  cudaDeviceSynchronize();
  std::exit(0);
}
