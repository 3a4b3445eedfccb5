// Route: a memory pool located in host memory (cudaMemPoolCreate), its allocation written by a
// kernel and read by the host.
template <typename T>
std::vector<T> route_to_host(const T* dev, size_t n) {
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeHost;
  props.location.id = 0;
  cudaMemPool_t pool;
  cudaMemPoolCreate(&pool, &props);
  cudaMemAccessDesc access{};
  access.location.type = cudaMemLocationTypeDevice;
  access.location.id = 0;
  access.flags = cudaMemAccessFlagsProtReadWrite;
  cudaMemPoolSetAccess(pool, &access, 1);
  T* p = nullptr;
  cudaMallocFromPoolAsync(reinterpret_cast<void**>(&p), n * sizeof(T), pool, 0);
  route_copy_on_device(p, dev, n);
  cudaDeviceSynchronize();
  std::vector<T> h(p, p + n);
  cudaFreeAsync(p, 0);
  cudaDeviceSynchronize();
  cudaMemPoolDestroy(pool);
  return h;
}
