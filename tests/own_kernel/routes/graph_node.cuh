// Route: a memcpy node of a CUDA graph built by hand, device to host.
template <typename T>
std::vector<T> route_to_host(const T* dev, size_t n) {
  std::vector<T> h(n);
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  cudaGraphNode_t node;
  cudaGraphAddMemcpyNode1D(&node, graph, nullptr, 0, h.data(), dev, n * sizeof(T), cudaMemcpyDeviceToHost);
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphDestroy(graph);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaGraphLaunch(exec, stream);
  cudaStreamSynchronize(stream);
  cudaGraphExecDestroy(exec);
  cudaStreamDestroy(stream);
  return h;
}
