// Hostile: a kernel that never finishes (reduce_sum_int). Expected: the
// emulator's watchdog or the time limit stops it; part "int" scores 0.
#include "hostile_common.cuh"

__global__ void spin(int* out) {
  while (*reinterpret_cast<volatile int*>(out) != 42) {
  }
}

void reduce_sum_int(const int*, int* out, int) { spin<<<1, 32>>>(out); }
