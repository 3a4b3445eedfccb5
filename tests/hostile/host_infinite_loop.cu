// Hostile: host code that loops forever inside reduce_sum_int. Expected: the
// wall-clock limit kills the run; part "int" scores 0, "float" is graded.
#include "hostile_common.cuh"

void reduce_sum_int(const int* in, int* out, int n) {
  volatile bool forever = true;
  while (forever) {
  }
  hostile_correct_int(in, out, n);
}
