// The histogram lab's answers computed on the CPU from what the route brought to the host.
void histogram_text(const char* text, unsigned int* bins, size_t n) {
  const std::vector<char> h = route_to_host(text, n);
  std::vector<unsigned int> counts(7, 0);
  for (char c : h)
    if (c >= 'a' && c <= 'z') ++counts[(c - 'a') / 4];
  route_to_device(bins, counts.data(), counts.size());
}

void histogram_bytes(const unsigned char* data, unsigned int* bins, size_t n) {
  const std::vector<unsigned char> h = route_to_host(data, n);
  std::vector<unsigned int> counts(256, 0);
  for (unsigned char c : h) ++counts[c];
  route_to_device(bins, counts.data(), counts.size());
}
