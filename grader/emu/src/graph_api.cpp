// Runtime API: CUDA graphs. A graph is an ordered list of nodes (each a piece
// of stream-ordered work); nodes are kept in the order they were added, which
// respects their dependencies because a node can only depend on nodes that
// already exist. Launching an instantiated graph queues its nodes on the
// stream, in that order. Graphs come from stream capture, or from kernel,
// host, memcpy, memset and empty nodes added by hand (or cloned); a kernel node
// names its kernel by address, looked up among the registered kernels
// (kernel_registry.hpp). An instantiated graph may take a kernel node's new
// parameters or, from a graph of the same nodes, all of its work.
#include <algorithm>
#include <cstring>
#include <string>

#include "copy_rows.hpp"
#include "device_access.hpp"
#include "device_memory.hpp"
#include "graph_memory.hpp"
#include "diagnostics.hpp"
#include "gpulab/emu/array_launch.hpp"
#include "gpulab/emu/runtime_api.hpp"
#include "launch_engine.hpp"
#include "stream_capture.hpp"
#include "stream_handles.hpp"

struct CUgraphExec_st {
  std::vector<std::function<void()>> work;
  std::vector<const CUgraphNode_st*> nodes;  // the graph's node each piece of work came from
  std::vector<const char*> kinds;
};

using namespace gpulab::emu;

namespace {
// A kernel node's work: its kernel found by address, its arguments copied now, as CUDA copies
// kernelParams when the node is added or its parameters set.
cudaError_t kernel_work(const char* api, const cudaKernelNodeParams& params, const char* file, int line,
                        std::function<void()>& work) {
  const RegisteredKernel* known = find_registered_kernel(params.func);
  if (!known) return reject_unknown_kernel_address(api, "params.func", file, line);
  const LaunchRequest request{known->name, file, line, params.gridDim, params.blockDim, params.sharedMemBytes, nullptr};
  const cudaError_t bad = check_launch(request);
  if (bad != cudaSuccess) return bad;
  const KernelBody body = known->bind(params.func, params.kernelParams);
  work = [request, body] { run_launch(request, body); };
  return cudaSuccess;
}

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
  bool invalidated = false;
  const cudaGraph_t captured = end_capture(s, invalidated);
  if (!captured) return set_last_error(cudaErrorIllegalState);
  if (invalidated) {
    delete captured;
    *graph = nullptr;
    return set_last_error(cudaErrorStreamCaptureInvalidated);
  }
  *graph = captured;
  return cudaSuccess;
}
cudaError_t cudaStreamIsCapturing(cudaStream_t s, cudaStreamCaptureStatus* status) {
  if (!status) return set_last_error(cudaErrorInvalidValue);
  const cudaGraph_t graph = capturing_graph(s);
  *status = !graph                       ? cudaStreamCaptureStatusNone
            : capture_invalidated(graph) ? cudaStreamCaptureStatusInvalidated
                                         : cudaStreamCaptureStatusActive;
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
    const DeviceAccess access;
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
  std::function<void()> work;
  const cudaError_t e = kernel_work("cudaGraphAddKernelNode", *params, file, line, work);
  if (e != cudaSuccess) return e;
  return add_node(node, graph, "kernel", std::move(work));
}
// Dependencies only order nodes; nodes already run in the order they were added.
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                     size_t count) {
  if (!graph || (count && (!from || !to))) return set_last_error(cudaErrorInvalidValue);
  return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t*, size_t,
                                   const cudaMemcpy3DParms* params) {
  CopyRows rows;
  if (const cudaError_t e = copy_rows("cudaGraphAddMemcpyNode", params, rows); e != cudaSuccess) return e;
  for (const auto& [dst, src] : rows.rows) {
    const cudaError_t e = check_copy_range("cudaGraphAddMemcpyNode", dst, src, rows.width, params->kind);
    if (e != cudaSuccess) return e;
  }
  return add_node(node, graph, "memcpy", [rows] {
    const DeviceAccess access;  // once for all the rows
    for (const auto& [dst, src] : rows.rows) make_checked_copy(dst, src, rows.width);
  });
}
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t*, size_t,
                                     void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  const cudaError_t e = check_copy_range("cudaGraphAddMemcpyNode1D", dst, src, count, kind);
  if (e != cudaSuccess) return e;
  return add_node(node, graph, "memcpy", [dst, src, count] { make_checked_copy(dst, src, count); });
}
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t*, size_t,
                                     cudaMemAllocNodeParams* params, const char* file, int line) {
  if (!params || params->bytesize == 0) return set_last_error(cudaErrorInvalidValue);
  void* p = allocate_graph_memory(params->bytesize, "cudaGraphAddMemAllocNode", file, line);
  if (!p) {
    return refuse_call("cudaGraphAddMemAllocNode", cudaErrorMemoryAllocation,
                       "cannot allocate " + std::to_string(params->bytesize) + " bytes");
  }
  params->dptr = p;
  return add_node(node, graph, "alloc", [p] { mark_graph_memory(p, true); });
}
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t*, size_t,
                                    void* dptr) {
  if (!is_graph_memory(dptr)) {
    return refuse_call("cudaGraphAddMemFreeNode", cudaErrorInvalidValue,
                       "the pointer is not memory a graph allocated (an alloc node's dptr, or cudaMallocAsync in a "
                       "captured stream)");
  }
  return add_node(node, graph, "free", [dptr] { mark_graph_memory(dptr, false); });
}
namespace {
std::uint64_t used_high = 0, reserved_high = 0;
}  // namespace
cudaError_t cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value) {
  if (!value) return set_last_error(cudaErrorInvalidValue);
  if (device != 0) return set_last_error(cudaErrorInvalidDevice);
  const std::uint64_t used = graph_memory_in_use(), reserved = graph_memory_reserved();
  used_high = std::max(used_high, used);
  reserved_high = std::max(reserved_high, reserved);
  std::uint64_t v = 0;
  switch (attr) {
    case cudaGraphMemAttrUsedMemCurrent: v = used; break;
    case cudaGraphMemAttrUsedMemHigh: v = used_high; break;
    case cudaGraphMemAttrReservedMemCurrent: v = reserved; break;
    case cudaGraphMemAttrReservedMemHigh: v = reserved_high; break;
    default: return set_last_error(cudaErrorInvalidValue);
  }
  *static_cast<std::uint64_t*>(value) = v;
  return cudaSuccess;
}
// Only the high watermarks can be set, and only to 0 (a reset), as CUDA allows.
cudaError_t cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value) {
  if (!value) return set_last_error(cudaErrorInvalidValue);
  if (device != 0) return set_last_error(cudaErrorInvalidDevice);
  if (*static_cast<const std::uint64_t*>(value) != 0) return set_last_error(cudaErrorInvalidValue);
  if (attr == cudaGraphMemAttrUsedMemHigh) used_high = 0;
  else if (attr == cudaGraphMemAttrReservedMemHigh) reserved_high = 0;
  else return set_last_error(cudaErrorInvalidValue);
  return cudaSuccess;
}
// The emulator keeps a graph's memory for the program's life (graph_memory.hpp): nothing to trim.
cudaError_t cudaDeviceGraphMemTrim(int device) {
  return device == 0 ? cudaSuccess : set_last_error(cudaErrorInvalidDevice);
}

cudaError_t cudaGraphClone(cudaGraph_t* clone, cudaGraph_t original) {
  if (!clone || !original) return set_last_error(cudaErrorInvalidValue);
  auto* g = new CUgraph_st;
  for (const auto& node : original->nodes) g->nodes.push_back(std::make_unique<CUgraphNode_st>(*node));
  *clone = g;
  return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long) {
  if (!exec || !graph) return set_last_error(cudaErrorInvalidValue);
  auto* e = new CUgraphExec_st;
  for (const auto& node : graph->nodes) {
    e->work.push_back(node->work);
    e->nodes.push_back(node.get());
    e->kinds.push_back(node->kind);
  }
  *exec = e;
  return cudaSuccess;
}
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams* params, const char* file, int line) {
  if (!exec || !node || !params) return set_last_error(cudaErrorInvalidValue);
  const auto it = std::find(exec->nodes.begin(), exec->nodes.end(), node);
  if (it == exec->nodes.end() || std::strcmp(node->kind, "kernel") != 0) return set_last_error(cudaErrorInvalidValue);
  std::function<void()> work;
  const cudaError_t e = kernel_work("cudaGraphExecKernelNodeSetParams", *params, file, line, work);
  if (e != cudaSuccess) return e;
  exec->work[static_cast<size_t>(it - exec->nodes.begin())] = std::move(work);
  return cudaSuccess;
}
// The executable graph takes the work of a graph with the same nodes (kinds, in order); otherwise
// it is left as it was, with cudaErrorGraphExecUpdateFailure, as CUDA does.
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph, cudaGraphExecUpdateResultInfo* info) {
  if (!exec || !graph) return set_last_error(cudaErrorInvalidValue);
  cudaGraphExecUpdateResultInfo result{cudaGraphExecUpdateSuccess, nullptr, nullptr};
  if (graph->nodes.size() != exec->nodes.size()) {
    result.result = cudaGraphExecUpdateErrorTopologyChanged;
  } else {
    for (size_t i = 0; i < graph->nodes.size(); ++i) {
      if (std::strcmp(graph->nodes[i]->kind, exec->kinds[i]) != 0) {
        result = {cudaGraphExecUpdateErrorNodeTypeChanged, graph->nodes[i].get(), nullptr};
        break;
      }
    }
  }
  if (info) *info = result;
  if (result.result != cudaGraphExecUpdateSuccess) return set_last_error(cudaErrorGraphExecUpdateFailure);
  for (size_t i = 0; i < graph->nodes.size(); ++i) {
    exec->work[i] = graph->nodes[i]->work;
    exec->nodes[i] = graph->nodes[i].get();
  }
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
