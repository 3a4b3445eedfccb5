// Runtime API: CUDA graphs. A graph is an ordered list of nodes (each a piece
// of stream-ordered work); nodes are kept in the order they were added, which
// respects their dependencies because a node can only depend on nodes that
// already exist. Launching an instantiated graph queues its nodes on the
// stream, in that order. Graphs come from stream capture, or from kernel,
// host, memset and empty nodes added by hand; a kernel node names its kernel
// by address, looked up among the registered kernels (kernel_registry.hpp).
#include <algorithm>
#include <cstring>
#include <string>

#include "device_memory.hpp"
#include "diagnostics.hpp"
#include "gpulab/emu/array_launch.hpp"
#include "gpulab/emu/runtime_api.hpp"
#include "launch_engine.hpp"
#include "stream_capture.hpp"
#include "stream_handles.hpp"

struct CUgraphExec_st {
  std::vector<std::function<void()>> work;
};

using namespace gpulab::emu;

namespace {
cudaError_t add_node(cudaGraphNode_t* node, cudaGraph_t graph, const char* kind, std::function<void()> work) {
  if (!node || !graph) return set_last_error(cudaErrorInvalidValue);
  graph->nodes.push_back(std::make_unique<CUgraphNode_st>(CUgraphNode_st{kind, std::move(work)}));
  *node = graph->nodes.back().get();
  return cudaSuccess;
}
}  // namespace

cudaError_t cudaStreamBeginCapture(cudaStream_t s, cudaStreamCaptureMode mode) {
  if (s == nullptr || s == cudaStreamLegacy) {
    return refuse_call("cudaStreamBeginCapture", cudaErrorStreamCaptureUnsupported,
                       "the legacy default stream cannot be captured; create a stream with cudaStreamCreate");
  }
  if (mode < cudaStreamCaptureModeGlobal || mode > cudaStreamCaptureModeRelaxed) {
    return set_last_error(cudaErrorInvalidValue);
  }
  if (capturing_graph(s)) return set_last_error(cudaErrorIllegalState);
  begin_capture(s, new CUgraph_st);
  return cudaSuccess;
}
cudaError_t cudaStreamEndCapture(cudaStream_t s, cudaGraph_t* graph) {
  if (!graph) return set_last_error(cudaErrorInvalidValue);
  const cudaGraph_t captured = end_capture(s);
  if (!captured) return set_last_error(cudaErrorIllegalState);
  *graph = captured;
  return cudaSuccess;
}
cudaError_t cudaStreamIsCapturing(cudaStream_t s, cudaStreamCaptureStatus* status) {
  if (!status) return set_last_error(cudaErrorInvalidValue);
  *status = capturing_graph(s) ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}

cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned int flags) {
  if (!graph || flags != 0) return set_last_error(cudaErrorInvalidValue);
  *graph = new CUgraph_st;
  return cudaSuccess;
}
cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  if (!graph) return set_last_error(cudaErrorInvalidValue);
  delete graph;
  return cudaSuccess;
}
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count) {
  if (!graph || !count) return set_last_error(cudaErrorInvalidValue);
  if (nodes) {
    const size_t n = std::min(*count, graph->nodes.size());
    for (size_t i = 0; i < n; ++i) nodes[i] = graph->nodes[i].get();
  }
  *count = graph->nodes.size();
  return cudaSuccess;
}
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t*, size_t) {
  return add_node(node, graph, "empty", [] {});
}
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t*, size_t,
                                 const cudaHostNodeParams* params) {
  if (!params || !params->fn) return set_last_error(cudaErrorInvalidValue);
  const cudaHostNodeParams p = *params;
  return add_node(node, graph, "host", [p] {
    p.fn(p.userData);
    note_memory_written();  // a host function may write what kernels read
  });
}
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t*, size_t,
                                   const cudaMemsetParams* params) {
  if (!params || !params->dst) return set_last_error(cudaErrorInvalidValue);
  const cudaMemsetParams p = *params;
  if (p.elementSize != 1 && p.elementSize != 2 && p.elementSize != 4) return set_last_error(cudaErrorInvalidValue);
  const size_t row_bytes = p.width * p.elementSize;
  const size_t height = p.height ? p.height : 1;
  const size_t span = (height - 1) * p.pitch + row_bytes;
  const std::string why = check_device_range(p.dst, span, "the memset node's destination");
  if (!why.empty()) return refuse_call("cudaGraphAddMemsetNode", cudaErrorInvalidValue, why);
  return add_node(node, graph, "memset", [p, height] {
    for (size_t r = 0; r < height; ++r) {
      char* row = static_cast<char*>(p.dst) + r * p.pitch;
      for (size_t i = 0; i < p.width; ++i) std::memcpy(row + i * p.elementSize, &p.value, p.elementSize);
    }
    note_memory_written();
  });
}
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t*, size_t,
                                   const cudaKernelNodeParams* params, const char* file, int line) {
  if (!params) return set_last_error(cudaErrorInvalidValue);
  if (params->extra)
    return refuse_call("cudaGraphAddKernelNode", cudaErrorNotSupported,
                       "the emulator takes a kernel node's arguments from kernelParams only, not packed in `extra`");
  const RegisteredKernel* known = find_registered_kernel(params->func);
  if (!known) return reject_unknown_kernel_address("cudaGraphAddKernelNode", "params.func", file, line);
  const LaunchRequest request{known->name, file, line, params->gridDim, params->blockDim, params->sharedMemBytes,
                              nullptr};
  const cudaError_t bad = check_launch(request);
  if (bad != cudaSuccess) return bad;
  // The arguments are copied now, as CUDA copies kernelParams when the node is added.
  const KernelBody body = known->bind(params->func, params->kernelParams);
  return add_node(node, graph, "kernel", [request, body] { run_launch(request, body); });
}
// Dependencies only order nodes; nodes already run in the order they were added.
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                     size_t count) {
  if (!graph || (count && (!from || !to))) return set_last_error(cudaErrorInvalidValue);
  return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long) {
  if (!exec || !graph) return set_last_error(cudaErrorInvalidValue);
  auto* e = new CUgraphExec_st;
  for (const auto& node : graph->nodes) e->work.push_back(node->work);
  *exec = e;
  return cudaSuccess;
}
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags) {
  return cudaGraphInstantiate(exec, graph, flags);
}
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t s) {
  if (!exec) return set_last_error(cudaErrorInvalidValue);
  for (const auto& work : exec->work) submit(s, work, "graph");
  return cudaSuccess;
}
// Queued replays hold their own copies of the work, so the executable graph can go at once.
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  if (!exec) return set_last_error(cudaErrorInvalidValue);
  delete exec;
  return cudaSuccess;
}
