// The runtime API of stream-ordered work (definitions in grader/emu/src/
// stream_api.cpp, graph_api.cpp and memory_pool_api.cpp): host functions and
// callbacks, stream capture and graphs, stream-ordered allocation, managed
// memory prefetch and advice. Each returns the code CUDA 13 returns.
#pragma once
#include "gpulab/emu/runtime_types.hpp"
#include "gpulab/emu/stream_types.hpp"

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData);
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                                  unsigned int flags);

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status);
cudaError_t cudaGraphCreate(cudaGraph_t* graph, unsigned int flags);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);
cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* count);
cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                  size_t dependency_count);
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                 size_t dependency_count, const cudaHostNodeParams* params);
cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                   size_t dependency_count, const cudaMemsetParams* params);
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                   size_t dependency_count, const cudaKernelNodeParams* params,
                                   const char* file = __builtin_FILE(), int line = __builtin_LINE());
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                     size_t count);
// Memcpy nodes between linear allocations (the copy is checked when the node is added and made at
// each launch of the graph).
cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                   size_t dependency_count, const cudaMemcpy3DParms* params);
cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                     size_t dependency_count, void* dst, const void* src, size_t count,
                                     cudaMemcpyKind kind);
cudaError_t cudaGraphClone(cudaGraph_t* clone, cudaGraph_t original);
// Memory a graph allocates: its address is fixed when the node is added and stays the same at every
// launch; a free node (or cudaFree/cudaFreeAsync after the launch) frees it for the program.
cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                     size_t dependency_count, cudaMemAllocNodeParams* params,
                                     const char* file = __builtin_FILE(), int line = __builtin_LINE());
cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* node, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                    size_t dependency_count, void* dptr);
cudaError_t cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value);
cudaError_t cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void* value);
cudaError_t cudaDeviceGraphMemTrim(int device);
// Changing an instantiated graph: a kernel node's parameters, or the whole graph from one of the
// same shape (as CUDA 13 defines them: same nodes, same kinds, in the same order).
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams* params, const char* file = __builtin_FILE(),
                                             int line = __builtin_LINE());
enum cudaGraphExecUpdateResult {
  cudaGraphExecUpdateSuccess = 0x0,
  cudaGraphExecUpdateError = 0x1,
  cudaGraphExecUpdateErrorTopologyChanged = 0x2,
  cudaGraphExecUpdateErrorNodeTypeChanged = 0x3,
  cudaGraphExecUpdateErrorFunctionChanged = 0x4,
  cudaGraphExecUpdateErrorParametersChanged = 0x5,
  cudaGraphExecUpdateErrorNotSupported = 0x6,
  cudaGraphExecUpdateErrorUnsupportedFunctionChange = 0x7,
  cudaGraphExecUpdateErrorAttributesChanged = 0x8
};
struct cudaGraphExecUpdateResultInfo {
  enum cudaGraphExecUpdateResult result;
  cudaGraphNode_t errorNode;
  cudaGraphNode_t errorFromNode;
};
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph, cudaGraphExecUpdateResultInfo* info);
// The four-argument form CUDA 13's cuda_runtime.h still declares.
inline cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph, cudaGraphNode_t* error_node,
                                       cudaGraphExecUpdateResult* result) {
  cudaGraphExecUpdateResultInfo info{};
  const cudaError_t e = cudaGraphExecUpdate(exec, graph, &info);
  if (error_node) *error_node = info.errorNode;
  if (result) *result = info.result;
  return e;
}
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags = 0);
cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags = 0);
// The five-argument form CUDA 13's cuda_runtime.h still declares (as CUDA 11's C API had it): the
// error node and log are left as they are, since instantiation does not fail here.
inline cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, cudaGraphNode_t*, char*, size_t) {
  return cudaGraphInstantiate(exec, graph, 0ull);
}
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);

// Allocations remember where they were made, for out-of-bounds reports.
cudaError_t cudaMallocAsync(void** ptr, size_t size, cudaStream_t stream, const char* file = __builtin_FILE(),
                            int line = __builtin_LINE());
template <class T>
inline cudaError_t cudaMallocAsync(T** ptr, size_t size, cudaStream_t stream, const char* file = __builtin_FILE(),
                                   int line = __builtin_LINE()) {
  return cudaMallocAsync(reinterpret_cast<void**>(ptr), size, stream, file, line);
}
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device);
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool);
// Copies of a batch, in order, on a stream (CUDA 12.8's cudaMemcpyBatchAsync): each as a
// cudaMemcpyAsync whose direction the pointers give; attributes are checked, not used.
cudaError_t cudaMemcpyBatchAsync(void* const* dsts, const void* const* srcs, const size_t* sizes, size_t count,
                                 cudaMemcpyAttributes* attrs, size_t* attrs_indices, size_t num_attrs,
                                 cudaStream_t stream);
cudaError_t cudaMemPoolCreate(cudaMemPool_t* pool, const cudaMemPoolProps* props);
// Which devices may reach a pool's memory: the one device, read-write.
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool, const cudaMemAccessDesc* descs, size_t count);
cudaError_t cudaMemPoolGetAccess(cudaMemAccessFlags* flags, cudaMemPool_t pool, cudaMemLocation* location);
cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value);
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t min_bytes_to_keep);
cudaError_t cudaMallocFromPoolAsync(void** ptr, size_t size, cudaMemPool_t pool, cudaStream_t stream,
                                    const char* file = __builtin_FILE(), int line = __builtin_LINE());
template <class T>
inline cudaError_t cudaMallocFromPoolAsync(T** ptr, size_t size, cudaMemPool_t pool, cudaStream_t stream,
                                           const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return cudaMallocFromPoolAsync(reinterpret_cast<void**>(ptr), size, pool, stream, file, line);
}
template <class T>
inline cudaError_t cudaMallocAsync(T** ptr, size_t size, cudaMemPool_t pool, cudaStream_t stream,
                                   const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  return cudaMallocFromPoolAsync(reinterpret_cast<void**>(ptr), size, pool, stream, file, line);
}

cudaError_t cudaMemPrefetchAsync(const void* ptr, size_t count, cudaMemLocation location, unsigned int flags,
                                 cudaStream_t stream = 0);
cudaError_t cudaMemAdvise(const void* ptr, size_t count, cudaMemoryAdvise advice, cudaMemLocation location);
// Attaching managed memory to a stream says who may touch it while the stream runs; the emulated
// device and the host share one memory, so it is checked (managed memory, a flag of CUDA's) and kept.
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* ptr, size_t length = 0,
                                     unsigned int flags = cudaMemAttachSingle);
template <class T>
inline cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, T* ptr, size_t length = 0,
                                            unsigned int flags = cudaMemAttachSingle) {
  return cudaStreamAttachMemAsync(stream, static_cast<void*>(ptr), length, flags);
}
