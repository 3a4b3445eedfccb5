// Cheats on repeated calls: remembers the input pointer and, when called again
// with the same one, copies back the sum it computed the first time. Correct
// on every single call, very fast when timed; the grader's last call, on fresh
// inputs in the same buffers, must catch it.
#include "reduction_common.cuh"

template <typename T>
static void cached_sum(const T* in, T* out, int n) {
  static const T* seen = nullptr;
  static T* saved = nullptr;
  if (in == seen) {
    cudaMemcpy(out, saved, sizeof(T), cudaMemcpyDeviceToDevice);
    return;
  }
  shuffle_sum<T><<<sum_blocks(n), RBLOCK>>>(in, out, n);
  if (!saved) cudaMalloc(&saved, sizeof(T));
  cudaMemcpy(saved, out, sizeof(T), cudaMemcpyDeviceToDevice);
  seen = in;
}

void reduce_sum_int(const int* in, int* out, int n) { cached_sum(in, out, n); }
void reduce_sum_float(const float* in, float* out, int n) { cached_sum(in, out, n); }
