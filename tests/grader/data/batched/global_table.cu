// A global std::vector made before main (its elements in memory allocated then), only read by its
// calls, beside a static counter: the vector's pointer does not change, so the grader can put the
// statics back before every case and run them in one process. Right on a first call only, as
// static_counter.cu.
#include <vector>

#include "common_reduction.cuh"

std::vector<int> extra_passes(8, 0);
static int calls = 0;

void reduce_sum_int(const int* in, int* out, int n) {
  sum_on_gpu(in, out, n);
  if (++calls > 1 + extra_passes[3]) sum_on_gpu(in, out, n);
}
void reduce_sum_float(const float* in, float* out, int n) {
  sum_on_gpu(in, out, n);
  if (++calls > 1 + extra_passes[3]) sum_on_gpu(in, out, n);
}
