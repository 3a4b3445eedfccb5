// BUGGY submission (must lose points). Bug: the host function computes on
// the CPU: it copies a and b to the host, multiplies them there with the
// triple loop and copies c back. No kernel runs, which the lab forbids: the
// point is to compute on the GPU.
#include <vector>

void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
  std::vector<float> ha(static_cast<size_t>(m) * k), hb(static_cast<size_t>(k) * n), hc(static_cast<size_t>(m) * n);
  cudaMemcpy(ha.data(), a, ha.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(hb.data(), b, hb.size() * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (int p = 0; p < k; ++p) sum += ha[static_cast<size_t>(i) * k + p] * hb[static_cast<size_t>(p) * n + j];
      hc[static_cast<size_t>(i) * n + j] = sum;
    }
  }
  cudaMemcpy(c, hc.data(), hc.size() * sizeof(float), cudaMemcpyHostToDevice);
}
