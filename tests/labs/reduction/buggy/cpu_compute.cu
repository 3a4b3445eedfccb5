// BUGGY submission (must lose points). Bug: the host functions compute on the
// CPU -- they copy the input to the host, sum it there and copy the sum back.
// The sums are right, but no kernel runs, which the lab forbids: the point is
// to compute on the GPU.
#include <vector>

void reduce_sum_int(const int* in, int* out, int n) {
  std::vector<int> h(n);
  cudaMemcpy(h.data(), in, n * sizeof(int), cudaMemcpyDeviceToHost);
  long long sum = 0;
  for (int v : h) sum += v;
  const int result = static_cast<int>(sum);
  cudaMemcpy(out, &result, sizeof(int), cudaMemcpyHostToDevice);
}

void reduce_sum_float(const float* in, float* out, int n) {
  std::vector<float> h(n);
  cudaMemcpy(h.data(), in, n * sizeof(float), cudaMemcpyDeviceToHost);
  double sum = 0;
  for (float v : h) sum += v;
  const float result = static_cast<float>(sum);
  cudaMemcpy(out, &result, sizeof(float), cudaMemcpyHostToDevice);
}
