// Route: mapped page-locked host memory (cudaHostAlloc with cudaHostAllocMapped), written by a
// kernel through its device pointer, read by the host.
template <typename T>
std::vector<T> route_to_host(const T* dev, size_t n) {
  T* pinned = nullptr;
  cudaHostAlloc(reinterpret_cast<void**>(&pinned), n * sizeof(T), cudaHostAllocMapped);
  T* through = nullptr;
  cudaHostGetDevicePointer(reinterpret_cast<void**>(&through), pinned, 0);
  route_copy_on_device(through, dev, n);
  cudaDeviceSynchronize();
  std::vector<T> h(pinned, pinned + n);
  cudaFreeHost(pinned);
  return h;
}
