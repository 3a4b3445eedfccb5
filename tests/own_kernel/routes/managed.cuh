// Route: managed memory. A kernel copies the data into cudaMallocManaged memory, which the host
// then reads directly, with no copy.
template <typename T>
std::vector<T> route_to_host(const T* dev, size_t n) {
  T* m = nullptr;
  cudaMallocManaged(&m, n * sizeof(T));
  route_copy_on_device(m, dev, n);
  cudaDeviceSynchronize();
  std::vector<T> h(m, m + n);
  cudaFree(m);
  return h;
}
