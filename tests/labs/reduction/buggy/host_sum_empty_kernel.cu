// BUGGY submission (must lose points). Bug: the host functions compute on the
// CPU: they copy the input to the host, sum it there, launch an empty kernel
// (so that "a kernel was launched" holds) and copy the sum into `out`. The
// sums are right, but the GPU did none of the work: the grader sees the input's
// bytes reach host memory (tests/own_kernel has the same on every route and lab).
#include <vector>

__global__ void nothing() {}

template <typename T, typename Sum>
void sum_on_the_cpu(const T* in, T* out, int n) {
  std::vector<T> h(n);
  cudaMemcpy(h.data(), in, n * sizeof(T), cudaMemcpyDeviceToHost);
  Sum sum = 0;
  for (T v : h) sum += v;
  const T result = static_cast<T>(sum);
  nothing<<<1, 1>>>();
  cudaMemcpy(out, &result, sizeof(T), cudaMemcpyHostToDevice);
}

void reduce_sum_int(const int* in, int* out, int n) { sum_on_the_cpu<int, long long>(in, out, n); }
void reduce_sum_float(const float* in, float* out, int n) { sum_on_the_cpu<float, double>(in, out, n); }
