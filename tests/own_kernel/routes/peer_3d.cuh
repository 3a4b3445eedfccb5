// Route: cudaMemcpy3DPeer between one device and the host, as a one-row "volume".
template <typename T>
std::vector<T> route_to_host(const T* dev, size_t n) {
  std::vector<T> h(n);
  const size_t bytes = n * sizeof(T);
  cudaMemcpy3DPeerParms p{};
  p.srcPtr = make_cudaPitchedPtr(const_cast<T*>(dev), bytes, bytes, 1);
  p.dstPtr = make_cudaPitchedPtr(h.data(), bytes, bytes, 1);
  p.extent = make_cudaExtent(bytes, 1, 1);
  p.srcDevice = 0;
  p.dstDevice = 0;
  cudaMemcpy3DPeer(&p);
  return h;
}
