// Route: a __device__ array. A kernel copies the data into it a chunk at a time and
// cudaMemcpyFromSymbol brings each chunk to the host.
__device__ unsigned char route_chunk[1 << 20];

__global__ void route_fill_chunk(const unsigned char* src, size_t bytes) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < bytes;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    route_chunk[i] = src[i];
}

template <typename T>
std::vector<T> route_to_host(const T* dev, size_t n) {
  std::vector<T> h(n);
  const size_t bytes = n * sizeof(T);
  const auto* from = reinterpret_cast<const unsigned char*>(dev);
  auto* to = reinterpret_cast<unsigned char*>(h.data());
  for (size_t at = 0; at < bytes; at += sizeof(route_chunk)) {
    const size_t len = bytes - at < sizeof(route_chunk) ? bytes - at : sizeof(route_chunk);
    route_fill_chunk<<<256, 256>>>(from + at, len);
    cudaMemcpyFromSymbol(to + at, route_chunk, len, 0, cudaMemcpyDeviceToHost);
  }
  return h;
}
