// Buggy submission (must lose points): COMPUTES ON THE CPU.
// The host functions copy the input to the host, run the sequential scan there
// and copy the result back: the outputs are right, but no kernel ever runs, which
// is not what the lab asks for (and is what the grader must refuse).
#include <cuda_runtime.h>

#include <vector>

void inclusive_scan(const float* in, float* out, int n) {
  std::vector<float> x(n), y(n);
  cudaMemcpy(x.data(), in, n * sizeof(float), cudaMemcpyDeviceToHost);
  double sum = 0.0;  // in double, so the result is as accurate as the gold
  for (int i = 0; i < n; ++i) {
    sum += x[i];
    y[i] = static_cast<float>(sum);
  }
  cudaMemcpy(out, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
}

void exclusive_scan(const int* in, int* out, int n) {
  std::vector<int> x(n), y(n);
  cudaMemcpy(x.data(), in, n * sizeof(int), cudaMemcpyDeviceToHost);
  int sum = 0;
  for (int i = 0; i < n; ++i) {
    y[i] = sum;
    sum += x[i];
  }
  cudaMemcpy(out, y.data(), n * sizeof(int), cudaMemcpyHostToDevice);
}
