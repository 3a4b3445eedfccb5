// The matmul lab's answer computed on the CPU from what the route brought to the host.
void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
  const std::vector<float> ha = route_to_host(a, static_cast<size_t>(m) * k);
  const std::vector<float> hb = route_to_host(b, static_cast<size_t>(k) * n);
  std::vector<float> result(static_cast<size_t>(m) * n);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double sum = 0;
      for (int p = 0; p < k; ++p) sum += static_cast<double>(ha[static_cast<size_t>(i) * k + p]) * hb[static_cast<size_t>(p) * n + j];
      result[static_cast<size_t>(i) * n + j] = static_cast<float>(sum);
    }
  }
  route_to_device(c, result.data(), result.size());
}
