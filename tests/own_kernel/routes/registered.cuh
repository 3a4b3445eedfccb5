// Route: ordinary host memory registered with cudaHostRegister (mapped), written by a kernel.
template <typename T>
std::vector<T> route_to_host(const T* dev, size_t n) {
  std::vector<T> h(n);
  cudaHostRegister(h.data(), n * sizeof(T), cudaHostRegisterMapped);
  T* through = nullptr;
  cudaHostGetDevicePointer(reinterpret_cast<void**>(&through), h.data(), 0);
  route_copy_on_device(through, dev, n);
  cudaDeviceSynchronize();
  cudaHostUnregister(h.data());
  return h;
}
