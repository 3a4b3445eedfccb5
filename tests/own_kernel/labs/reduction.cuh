// The reduction lab's answer computed on the CPU from what the route brought to the host.
void reduce_sum_int(const int* in, int* out, int n) {
  const std::vector<int> h = route_to_host(in, static_cast<size_t>(n));
  long long sum = 0;
  for (int v : h) sum += v;
  const int result = static_cast<int>(sum);
  route_to_device(out, &result, 1);
}

void reduce_sum_float(const float* in, float* out, int n) {
  const std::vector<float> h = route_to_host(in, static_cast<size_t>(n));
  double sum = 0;
  for (float v : h) sum += v;
  const float result = static_cast<float>(sum);
  route_to_device(out, &result, 1);
}
