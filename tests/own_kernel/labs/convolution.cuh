// The convolution lab's answers computed on the CPU from what the route brought to the host.
void convolution_1d(const float* in, const float* mask, float* out, int width, int mask_width) {
  const std::vector<float> h = route_to_host(in, static_cast<size_t>(width));
  const std::vector<float> m = route_to_host(mask, static_cast<size_t>(mask_width));
  std::vector<float> result(h.size());
  for (int i = 0; i < width; ++i) {
    double sum = 0;
    for (int j = 0; j < mask_width; ++j) {
      const int at = i + j - mask_width / 2;
      if (at >= 0 && at < width) sum += static_cast<double>(h[at]) * m[j];
    }
    result[i] = static_cast<float>(sum);
  }
  route_to_device(out, result.data(), result.size());
}

void convolution_2d(const float* in, const float* mask, float* out, int height, int width, int mask_width) {
  const std::vector<float> h = route_to_host(in, static_cast<size_t>(height) * width);
  const std::vector<float> m = route_to_host(mask, static_cast<size_t>(mask_width) * mask_width);
  std::vector<float> result(h.size());
  const int r = mask_width / 2;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      double sum = 0;
      for (int dy = 0; dy < mask_width; ++dy) {
        for (int dx = 0; dx < mask_width; ++dx) {
          const int yy = y + dy - r, xx = x + dx - r;
          if (yy >= 0 && yy < height && xx >= 0 && xx < width)
            sum += static_cast<double>(h[static_cast<size_t>(yy) * width + xx]) * m[dy * mask_width + dx];
        }
      }
      result[static_cast<size_t>(y) * width + x] = static_cast<float>(sum);
    }
  }
  route_to_device(out, result.data(), result.size());
}
