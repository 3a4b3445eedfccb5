// Route: cudaMemcpy3DPeer between one device and page-locked host memory, as a one-row "volume"
// (a GPU refuses pageable host memory on either side of a peer copy, as cudaMemcpyPeer does:
// tests/gpu/expected/probe_copy_forms.txt).
template <typename T>
std::vector<T> route_to_host(const T* dev, size_t n) {
  const size_t bytes = n * sizeof(T);
  T* pinned = nullptr;
  cudaMallocHost(reinterpret_cast<void**>(&pinned), bytes);
  cudaMemcpy3DPeerParms p{};
  p.srcPtr = make_cudaPitchedPtr(const_cast<T*>(dev), bytes, bytes, 1);
  p.dstPtr = make_cudaPitchedPtr(pinned, bytes, bytes, 1);
  p.extent = make_cudaExtent(bytes, 1, 1);
  p.srcDevice = 0;
  p.dstDevice = 0;
  cudaMemcpy3DPeer(&p);
  std::vector<T> h(pinned, pinned + n);
  cudaFreeHost(pinned);
  return h;
}
