// Route: a kernel given a pointer to ordinary host memory writes the data there (a GPU fails with
// an illegal address; the emulator must refuse too).
template <typename T>
std::vector<T> route_to_host(const T* dev, size_t n) {
  std::vector<T> h(n);
  route_copy_on_device(h.data(), dev, n);
  cudaDeviceSynchronize();
  return h;
}
