// Exploit: keep the input in L2 between calls. Each call sets the largest
// persisting-L2 set-aside the device allows and an access-policy window over
// its input on the default stream (hit ratio 1, persisting), so that on a GPU
// the lines the grader's input preparation writes would stay in L2 through the
// cache flush and the timed call would read them from L2 instead of memory.
// The grader resets persisting lines and sets the set-aside to 0 before every
// call: this file must time like its control, reduction_shuffle.cu.
// It also checks that the reset happened: if the set-aside it asked for last
// time is still in force when it is called again, it returns a wrong sum on
// purpose, so a grader without the reset fails it.
#include "reduction_common.cuh"

namespace {
template <typename T>
void pinned_sum(const T* in, T* out, int n) {
  static bool asked_before = false;
  size_t still_set = 0;
  cudaDeviceGetLimit(&still_set, cudaLimitPersistingL2CacheSize);
  const bool survived = asked_before && still_set > 0;

  int device = 0, max_persisting = 0, max_window = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&max_persisting, cudaDevAttrMaxPersistingL2CacheSize, device);
  cudaDeviceGetAttribute(&max_window, cudaDevAttrMaxAccessPolicyWindowSize, device);
  if (max_persisting > 0 && max_window > 0) {
    cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, static_cast<size_t>(max_persisting));
    cudaStreamAttrValue attr = {};
    attr.accessPolicyWindow.base_ptr = const_cast<T*>(in);
    const size_t bytes = static_cast<size_t>(n) * sizeof(T);
    attr.accessPolicyWindow.num_bytes = bytes < static_cast<size_t>(max_window) ? bytes : static_cast<size_t>(max_window);
    attr.accessPolicyWindow.hitRatio = 1.0f;
    attr.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    cudaStreamSetAttribute(0, cudaStreamAttributeAccessPolicyWindow, &attr);
    asked_before = true;
  }
  shuffle_sum<T><<<sum_blocks(n), RBLOCK>>>(in, out, n);
  if (survived) shuffle_sum<T><<<1, RBLOCK>>>(in, out, n < 64 ? n : 64);  // adds a wrong amount on purpose
}
}  // namespace

void reduce_sum_int(const int* in, int* out, int n) { pinned_sum(in, out, n); }
void reduce_sum_float(const float* in, float* out, int n) { pinned_sum(in, out, n); }
