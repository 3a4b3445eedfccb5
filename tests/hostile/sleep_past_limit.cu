// Hostile: the host function sleeps far past the time limit.
#include "hostile_common.cuh"

void reduce_sum_int(const int* in, int* out, int n) {
  sleep(1000);
  hostile_correct_int(in, out, n);
}
