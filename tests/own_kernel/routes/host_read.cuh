// Route: the host reads the device pointer directly (a GPU crashes; the emulator must too).
template <typename T>
std::vector<T> route_to_host(const T* dev, size_t n) {
  cudaDeviceSynchronize();
  return std::vector<T>(dev, dev + n);
}
