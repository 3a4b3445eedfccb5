// The scan lab's answers computed on the CPU from what the route brought to the host.
void inclusive_scan(const float* in, float* out, int n) {
  const std::vector<float> h = route_to_host(in, static_cast<size_t>(n));
  std::vector<float> result(h.size());
  double sum = 0;
  for (size_t i = 0; i < h.size(); ++i) result[i] = static_cast<float>(sum += h[i]);
  route_to_device(out, result.data(), result.size());
}

void exclusive_scan(const int* in, int* out, int n) {
  const std::vector<int> h = route_to_host(in, static_cast<size_t>(n));
  std::vector<int> result(h.size());
  long long sum = 0;
  for (size_t i = 0; i < h.size(); ++i) {
    result[i] = static_cast<int>(sum);
    sum += h[i];
  }
  route_to_device(out, result.data(), result.size());
}
