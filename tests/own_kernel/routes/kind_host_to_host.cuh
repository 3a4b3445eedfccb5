// Route: a copy whose declared kind says host-to-host; CUDA takes the pointers' word over the kind
// and copies from the device (tests/gpu/expected/probe_copy_kinds.txt).
template <typename T>
std::vector<T> route_to_host(const T* dev, size_t n) {
  std::vector<T> h(n);
  cudaMemcpy(h.data(), dev, n * sizeof(T), cudaMemcpyHostToHost);
  return h;
}
