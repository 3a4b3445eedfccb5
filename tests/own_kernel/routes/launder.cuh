// Route: launder through device copies. A kernel copies the data to scratch device memory and
// cudaMemcpy brings the scratch, not the input itself, to the host.
template <typename T>
std::vector<T> route_to_host(const T* dev, size_t n) {
  T* scratch = nullptr;
  cudaMalloc(&scratch, n * sizeof(T));
  route_copy_on_device(scratch, dev, n);
  std::vector<T> h(n);
  cudaMemcpy(h.data(), scratch, n * sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(scratch);
  return h;
}
