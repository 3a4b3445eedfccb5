// Route: cudaMemcpyBatchAsync (CUDA 12.8), one copy in the batch, on a stream of its own.
template <typename T>
std::vector<T> route_to_host(const T* dev, size_t n) {
  std::vector<T> h(n);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  void* dsts[1] = {h.data()};
  const void* srcs[1] = {dev};
  size_t sizes[1] = {n * sizeof(T)};
  cudaMemcpyAttributes attrs{};
  attrs.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
  size_t attr_index = 0;
  cudaMemcpyBatchAsync(dsts, srcs, sizes, 1, &attrs, &attr_index, 1, stream);
  cudaStreamSynchronize(stream);
  cudaStreamDestroy(stream);
  return h;
}
