// Audit route: references to the grader's harness. The submission declares the harness's launch
// counter and the real launch entry point behind the counting wrapper (--wrap), and calls both.
#include <cuda_runtime.h>

namespace gpulab::harness {
long long kernel_launches_so_far();
}

extern "C" cudaError_t __real_cudaLaunchKernel(const void*, dim3, dim3, void**, size_t, cudaStream_t);

__global__ void nothing() {}

void reduce_sum_int(const int*, int* out, int) {
  *out = static_cast<int>(gpulab::harness::kernel_launches_so_far());
  __real_cudaLaunchKernel(reinterpret_cast<const void*>(&nothing), dim3(1), dim3(1), nullptr, 0, 0);
}
