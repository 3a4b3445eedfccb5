// The memcpy nodes of CUDA graphs on a GPU (transfer_log.hpp's
// "graph_memcpy_node" route): a node moves its bytes each time its graph
// runs, not when it is added or captured, so the harness keeps, for every
// instantiated graph, the parameters of its memcpy nodes (child graphs
// included) as they were at instantiation, follows every change made to the
// instantiated graph afterwards (whole-graph updates, a node's new parameters,
// a child graph swapped), and counts at each launch the bytes those nodes move
// into host memory, with the pointers' locations at that moment. A graph made
// for launches from device code is counted once, when it is instantiated.
// The entry points are wrapped at link time (copy_entry_points.hpp).
#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <vector>

#include "harness/transfer_hooks.hpp"
#include "harness/transfer_log.hpp"

namespace gpulab::harness {
unsigned long long bytes_into_host(const cudaMemcpy3DParms& p);  // transfer_hooks_cuda.cpp
}

namespace {
struct CopyNode {
  std::vector<cudaGraphNode_t> path;  // the node, after the child-graph nodes that hold it
  cudaMemcpy3DParms params{};
};

std::mutex graphs_mutex;
std::map<cudaGraphExec_t, std::vector<CopyNode>>& graphs() {
  static auto* g = new std::map<cudaGraphExec_t, std::vector<CopyNode>>();  // used until exit
  return *g;
}

// Queries that fail leave no error for the submission to see (it did not make them).
template <typename F> bool quietly(F&& query) {
  const cudaError_t before = cudaPeekAtLastError();
  if (query() == cudaSuccess) return true;
  if (before == cudaSuccess) cudaGetLastError();
  return false;
}

void collect(cudaGraph_t graph, std::vector<cudaGraphNode_t> path, std::vector<CopyNode>& out, int depth = 0) {
  size_t count = 0;
  if (depth > 64 || !quietly([&] { return cudaGraphGetNodes(graph, nullptr, &count); }) || count == 0) return;
  std::vector<cudaGraphNode_t> nodes(count);
  if (!quietly([&] { return cudaGraphGetNodes(graph, nodes.data(), &count); })) return;
  nodes.resize(count);
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type{};
    if (!quietly([&] { return cudaGraphNodeGetType(node, &type); })) continue;
    path.push_back(node);
    if (type == cudaGraphNodeTypeMemcpy) {
      CopyNode c{path, {}};
      if (quietly([&] { return cudaGraphMemcpyNodeGetParams(node, &c.params); })) out.push_back(c);
    } else if (type == cudaGraphNodeTypeGraph) {
      cudaGraph_t child = nullptr;
      if (quietly([&] { return cudaGraphChildGraphNodeGetGraph(node, &child); })) collect(child, path, out, depth + 1);
    }
    path.pop_back();
  }
}

unsigned long long bytes_into_host(const std::vector<CopyNode>& nodes) {
  unsigned long long total = 0;
  for (const CopyNode& c : nodes) total += gpulab::harness::bytes_into_host(c.params);
  return total;
}

void instantiated(cudaError_t r, cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags) {
  if (r != cudaSuccess || !exec || !*exec) return;
  std::vector<CopyNode> nodes;
  collect(graph, {}, nodes);
  if ((flags & cudaGraphInstantiateFlagDeviceLaunch) && gpulab::harness::recording_transfers())
    gpulab::harness::note_bytes_to_host("graph_memcpy_node", bytes_into_host(nodes));
  std::lock_guard<std::mutex> lock(graphs_mutex);
  graphs()[*exec] = std::move(nodes);
}

// A node of an instantiated graph got new memcpy parameters.
void node_params_set(cudaError_t r, cudaGraphExec_t exec, cudaGraphNode_t node, const cudaMemcpy3DParms& params) {
  if (r != cudaSuccess) return;
  std::lock_guard<std::mutex> lock(graphs_mutex);
  for (CopyNode& c : graphs()[exec])
    if (!c.path.empty() && c.path.back() == node) c.params = params;
}

// A child-graph node of an instantiated graph now holds `child`'s nodes instead.
void child_set(cudaError_t r, cudaGraphExec_t exec, cudaGraphNode_t node, cudaGraph_t child) {
  if (r != cudaSuccess) return;
  std::vector<CopyNode> fresh;
  collect(child, {node}, fresh);
  std::lock_guard<std::mutex> lock(graphs_mutex);
  std::vector<CopyNode>& nodes = graphs()[exec];
  std::erase_if(nodes,
                [&](const CopyNode& c) { return std::find(c.path.begin(), c.path.end(), node) != c.path.end(); });
  nodes.insert(nodes.end(), fresh.begin(), fresh.end());
}

void updated(cudaError_t r, cudaGraphExec_t exec, cudaGraph_t graph) {
  if (r != cudaSuccess) return;
  std::vector<CopyNode> nodes;
  collect(graph, {}, nodes);
  std::lock_guard<std::mutex> lock(graphs_mutex);
  graphs()[exec] = std::move(nodes);
}

cudaMemcpy3DParms one_dimensional(void* dst, const void* src, size_t count) {
  cudaMemcpy3DParms p{};
  p.dstPtr = make_cudaPitchedPtr(dst, count, count, 1);
  p.srcPtr = make_cudaPitchedPtr(const_cast<void*>(src), count, count, 1);
  p.extent = make_cudaExtent(count, 1, 1);
  return p;
}
}  // namespace

namespace gpulab::harness {
void note_graph_launch(cudaGraphExec_t exec) {
  if (!recording_transfers()) return;
  std::vector<CopyNode> nodes;
  {
    std::lock_guard<std::mutex> lock(graphs_mutex);
    const auto it = graphs().find(exec);
    if (it == graphs().end()) return;
    nodes = it->second;
  }
  note_bytes_to_host("graph_memcpy_node", bytes_into_host(nodes));
}
}  // namespace gpulab::harness

extern "C" {
#define GPULAB_WRAP(name, params, args, after) \
  cudaError_t __real_##name params;            \
  cudaError_t __wrap_##name params {           \
    const cudaError_t r = __real_##name args;  \
    after;                                     \
    return r;                                  \
  }
GPULAB_WRAP(cudaGraphInstantiate, (cudaGraphExec_t * e, cudaGraph_t g, unsigned long long f), (e, g, f),
            instantiated(r, e, g, f))
GPULAB_WRAP(cudaGraphInstantiateWithFlags, (cudaGraphExec_t * e, cudaGraph_t g, unsigned long long f), (e, g, f),
            instantiated(r, e, g, f))
GPULAB_WRAP(cudaGraphInstantiateWithParams, (cudaGraphExec_t * e, cudaGraph_t g, cudaGraphInstantiateParams* p),
            (e, g, p), instantiated(r, e, g, p ? p->flags : 0))
GPULAB_WRAP(cudaGraphInstantiateWithParams_ptsz, (cudaGraphExec_t * e, cudaGraph_t g, cudaGraphInstantiateParams* p),
            (e, g, p), instantiated(r, e, g, p ? p->flags : 0))
GPULAB_WRAP(cudaGraphExecUpdate, (cudaGraphExec_t e, cudaGraph_t g, cudaGraphExecUpdateResultInfo* i), (e, g, i),
            updated(r, e, g))
GPULAB_WRAP(cudaGraphExecMemcpyNodeSetParams, (cudaGraphExec_t e, cudaGraphNode_t n, const cudaMemcpy3DParms* p),
            (e, n, p), if (p) node_params_set(r, e, n, *p))
GPULAB_WRAP(cudaGraphExecMemcpyNodeSetParams1D,
            (cudaGraphExec_t e, cudaGraphNode_t n, void* d, const void* s, size_t c, cudaMemcpyKind k),
            (e, n, d, s, c, k), node_params_set(r, e, n, one_dimensional(d, s, c)))
GPULAB_WRAP(cudaGraphExecMemcpyNodeSetParamsFromSymbol,
            (cudaGraphExec_t e, cudaGraphNode_t n, void* d, const void* sym, size_t c, size_t o, cudaMemcpyKind k),
            (e, n, d, sym, c, o, k), {
              void* address = nullptr;
              if (quietly([&] { return cudaGetSymbolAddress(&address, sym); }))
                node_params_set(r, e, n, one_dimensional(d, static_cast<char*>(address) + o, c));
            })
GPULAB_WRAP(cudaGraphExecMemcpyNodeSetParamsToSymbol,
            (cudaGraphExec_t e, cudaGraphNode_t n, const void* sym, const void* s, size_t c, size_t o,
             cudaMemcpyKind k),
            (e, n, sym, s, c, o, k), {
              void* address = nullptr;
              if (quietly([&] { return cudaGetSymbolAddress(&address, sym); }))
                node_params_set(r, e, n, one_dimensional(static_cast<char*>(address) + o, s, c));
            })
GPULAB_WRAP(cudaGraphExecChildGraphNodeSetParams, (cudaGraphExec_t e, cudaGraphNode_t n, cudaGraph_t child),
            (e, n, child), child_set(r, e, n, child))
GPULAB_WRAP(cudaGraphExecNodeSetParams, (cudaGraphExec_t e, cudaGraphNode_t n, cudaGraphNodeParams* p), (e, n, p), {
  if (p && p->type == cudaGraphNodeTypeMemcpy) node_params_set(r, e, n, p->memcpy.copyParams);
  if (p && p->type == cudaGraphNodeTypeGraph) child_set(r, e, n, p->graph.graph);
})
GPULAB_WRAP(cudaGraphExecDestroy, (cudaGraphExec_t e), (e), {
  if (r == cudaSuccess) {
    std::lock_guard<std::mutex> lock(graphs_mutex);
    graphs().erase(e);
  }
})
#undef GPULAB_WRAP
}
