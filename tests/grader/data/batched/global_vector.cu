// A global std::vector made before main with elements (its memory allocated then), grown by every
// call: putting its bytes back could leave it pointing at freed memory, so the grader runs the case
// after each call in a fresh process instead. Its count of calls decides the answer, as above.
#include <vector>

#include "common_reduction.cuh"

std::vector<int> history(4, 0);

void reduce_sum_int(const int* in, int* out, int n) {
  history.push_back(n);
  sum_on_gpu(in, out, n);
  if (history.size() > 5) sum_on_gpu(in, out, n);
}
void reduce_sum_float(const float* in, float* out, int n) {
  history.push_back(n);
  sum_on_gpu(in, out, n);
  if (history.size() > 5) sum_on_gpu(in, out, n);
}
