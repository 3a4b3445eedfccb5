// Route: a device-to-host cudaMemcpyAsync captured from a stream into a graph: it moves nothing
// when captured, everything when the graph runs.
template <typename T>
std::vector<T> route_to_host(const T* dev, size_t n) {
  std::vector<T> h(n);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  cudaMemcpyAsync(h.data(), dev, n * sizeof(T), cudaMemcpyDeviceToHost, stream);
  cudaGraph_t graph;
  cudaStreamEndCapture(stream, &graph);
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, stream);
  cudaStreamSynchronize(stream);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  return h;
}
