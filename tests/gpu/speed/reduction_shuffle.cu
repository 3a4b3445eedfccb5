// A plain, fast warp-shuffle reduction (reduction_common.cuh): the control
// for reduction_l2_window.cu, which runs the same kernel with its input pinned
// in L2. Their speeds must agree.
#include "reduction_common.cuh"

void reduce_sum_int(const int* in, int* out, int n) { shuffle_sum<int><<<sum_blocks(n), RBLOCK>>>(in, out, n); }
void reduce_sum_float(const float* in, float* out, int n) { shuffle_sum<float><<<sum_blocks(n), RBLOCK>>>(in, out, n); }
