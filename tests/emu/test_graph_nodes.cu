// Conformance: CUDA graphs built by hand beyond kernel, host and memset nodes, as cuda-samples'
// simpleCudaGraphs and jacobiCudaGraphs build them: memcpy nodes described in three dimensions
// (cudaMemcpy3DParms, make_cudaPitchedPtr/Pos/Extent) and in one, a cloned graph, a kernel node's
// parameters changed in the instantiated graph, and cudaGraphExecUpdate (both of CUDA 13's forms);
// memory a graph allocates (alloc and free nodes, cudaMallocAsync captured), the same at every
// launch; cudaMemcpy3D itself; stream priorities. Plain CUDA: it also builds with nvcc.
#include <catch2/catch.hpp>

#include <vector>

namespace {

__global__ void add(int* out, int value, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += value;
}

}  // namespace

TEST_CASE("memcpy nodes (3D parameters and 1D) around a kernel node, replayed, a clone replays the same") {
  const int n = 64;
  std::vector<int> host(n, 5), back(n, 0);
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess);
  cudaGraph_t graph;
  REQUIRE(cudaGraphCreate(&graph, 0) == cudaSuccess);

  cudaMemcpy3DParms in = {0};
  in.srcArray = NULL;
  in.srcPos = make_cudaPos(0, 0, 0);
  in.srcPtr = make_cudaPitchedPtr(host.data(), n * sizeof(int), n, 1);
  in.dstArray = NULL;
  in.dstPos = make_cudaPos(0, 0, 0);
  in.dstPtr = make_cudaPitchedPtr(d, n * sizeof(int), n, 1);
  in.extent = make_cudaExtent(n * sizeof(int), 1, 1);
  in.kind = cudaMemcpyHostToDevice;
  cudaGraphNode_t copy_in, kernel, copy_out;
  REQUIRE(cudaGraphAddMemcpyNode(&copy_in, graph, NULL, 0, &in) == cudaSuccess);
  int value = 7, count = n;
  void* args[] = {&d, &value, &count};
  cudaKernelNodeParams params = {};
  params.func = (void*)add;
  params.gridDim = dim3(1);
  params.blockDim = dim3(n);
  params.kernelParams = args;
  REQUIRE(cudaGraphAddKernelNode(&kernel, graph, &copy_in, 1, &params) == cudaSuccess);
  REQUIRE(cudaGraphAddMemcpyNode1D(&copy_out, graph, &kernel, 1, back.data(), d, n * sizeof(int),
                                   cudaMemcpyDeviceToHost) == cudaSuccess);

  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, graph, NULL, NULL, 0) == cudaSuccess);
  host.assign(n, 1);  // the copy is made at the launch, from what the host holds then
  REQUIRE(cudaGraphLaunch(exec, 0) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(0) == cudaSuccess);
  CHECK(back[0] == 8);
  CHECK(back[n - 1] == 8);

  // A new value for the kernel node, in the instantiated graph only.
  value = 100;
  REQUIRE(cudaGraphExecKernelNodeSetParams(exec, kernel, &params) == cudaSuccess);
  REQUIRE(cudaGraphLaunch(exec, 0) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(0) == cudaSuccess);
  CHECK(back[3] == 101);

  cudaGraph_t clone;
  REQUIRE(cudaGraphClone(&clone, graph) == cudaSuccess);
  cudaGraphExec_t clone_exec;
  REQUIRE(cudaGraphInstantiate(&clone_exec, clone, 0) == cudaSuccess);
  REQUIRE(cudaGraphLaunch(clone_exec, 0) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(0) == cudaSuccess);
  CHECK(back[3] == 8);  // the graph's own parameters (7), not the executable's change

  // An update from a graph of the same shape takes its work; the four-argument form reports it.
  cudaGraphNode_t error_node = nullptr;
  cudaGraphExecUpdateResult result = cudaGraphExecUpdateError;
  REQUIRE(cudaGraphExecUpdate(exec, clone, &error_node, &result) == cudaSuccess);
  CHECK(result == cudaGraphExecUpdateSuccess);
  REQUIRE(cudaGraphLaunch(exec, 0) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(0) == cudaSuccess);
  CHECK(back[3] == 8);

  // One of another shape is refused and the executable graph stays as it was.
  cudaGraph_t other;
  REQUIRE(cudaGraphCreate(&other, 0) == cudaSuccess);
  cudaGraphNode_t empty;
  REQUIRE(cudaGraphAddEmptyNode(&empty, other, NULL, 0) == cudaSuccess);
  cudaGraphExecUpdateResultInfo info = {};
  CHECK(cudaGraphExecUpdate(exec, other, &info) == cudaErrorGraphExecUpdateFailure);
  CHECK(info.result == cudaGraphExecUpdateErrorTopologyChanged);
  CHECK(cudaGetLastError() == cudaErrorGraphExecUpdateFailure);
  REQUIRE(cudaGraphLaunch(exec, 0) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(0) == cudaSuccess);
  CHECK(back[3] == 8);

  for (cudaGraphExec_t e : {exec, clone_exec}) CHECK(cudaGraphExecDestroy(e) == cudaSuccess);
  for (cudaGraph_t g : {graph, clone, other}) CHECK(cudaGraphDestroy(g) == cudaSuccess);
  cudaFree(d);
}

TEST_CASE("cudaMemcpy3D copies a box of rows between pitched allocations") {
  const size_t width = 8, height = 4, depth = 2, pitch = 16 * sizeof(int);
  std::vector<int> host(16 * height * depth);
  for (size_t i = 0; i < host.size(); ++i) host[i] = static_cast<int>(i);
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, pitch * height * depth) == cudaSuccess);
  REQUIRE(cudaMemset(d, 0, pitch * height * depth) == cudaSuccess);
  cudaMemcpy3DParms p = {0};
  p.srcPtr = make_cudaPitchedPtr(host.data(), pitch, 16, height);
  p.srcPos = make_cudaPos(2 * sizeof(int), 1, 0);  // x in bytes, as for linear memory
  p.dstPtr = make_cudaPitchedPtr(d, pitch, 16, height);
  p.dstPos = make_cudaPos(0, 0, 1);
  p.extent = make_cudaExtent(width * sizeof(int), 2, 1);
  p.kind = cudaMemcpyHostToDevice;
  REQUIRE(cudaMemcpy3D(&p) == cudaSuccess);
  std::vector<int> back(host.size(), -1);
  REQUIRE(cudaMemcpy(back.data(), d, pitch * height * depth, cudaMemcpyDeviceToHost) == cudaSuccess);
  // Rows 1 and 2 of slice 0, from column 2, landed at rows 0 and 1 of slice 1, column 0.
  CHECK(back[16 * height + 0] == host[16 + 2]);
  CHECK(back[16 * height + 7] == host[16 + 9]);
  CHECK(back[16 * height + 16] == host[32 + 2]);
  CHECK(back[16 * height + 8] == 0);
  CHECK(back[0] == 0);
  p.extent = make_cudaExtent(pitch, 1, 1);  // a row past the pitch from x = 2 ints
  CHECK(cudaMemcpy3D(&p) == cudaErrorInvalidValue);  // as an H200 answers (CUDA 13.0)
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  cudaFree(d);
}

TEST_CASE("stream priorities: an H100's range, clamped, remembered") {
  int least = 1, greatest = 1;
  REQUIRE(cudaDeviceGetStreamPriorityRange(&least, &greatest) == cudaSuccess);
  CHECK(least == 0);
  CHECK(greatest == -5);
  cudaStream_t high, low;
  REQUIRE(cudaStreamCreateWithPriority(&high, cudaStreamNonBlocking, -100) == cudaSuccess);
  REQUIRE(cudaStreamCreateWithPriority(&low, cudaStreamDefault, least) == cudaSuccess);
  int p = 1;
  CHECK(cudaStreamGetPriority(high, &p) == cudaSuccess);
  CHECK(p == greatest);
  CHECK(cudaStreamGetPriority(low, &p) == cudaSuccess);
  CHECK(p == least);
  unsigned flags = 9;
  CHECK(cudaStreamGetFlags(high, &flags) == cudaSuccess);
  CHECK(flags == cudaStreamNonBlocking);
  CHECK(cudaStreamDestroy(high) == cudaSuccess);
  CHECK(cudaStreamDestroy(low) == cudaSuccess);
}

namespace {
__global__ void fill(int* out, int value, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value + i;
}
}  // namespace

TEST_CASE("a graph's own memory: alloc and free nodes, the same address at every launch") {
  const int n = 32;
  std::vector<int> back(n, 0);
  cudaGraph_t graph;
  REQUIRE(cudaGraphCreate(&graph, 0) == cudaSuccess);
  cudaMemAllocNodeParams alloc = {};
  alloc.poolProps.allocType = cudaMemAllocationTypePinned;
  alloc.poolProps.location.type = cudaMemLocationTypeDevice;
  alloc.poolProps.location.id = 0;
  alloc.bytesize = n * sizeof(int);
  cudaGraphNode_t alloc_node, kernel, copy, free_node;
  REQUIRE(cudaGraphAddMemAllocNode(&alloc_node, graph, NULL, 0, &alloc) == cudaSuccess);
  REQUIRE(alloc.dptr != nullptr);
  int* d = static_cast<int*>(alloc.dptr);
  int value = 40, count = n;
  void* args[] = {&d, &value, &count};
  cudaKernelNodeParams params = {};
  params.func = (void*)fill;
  params.gridDim = dim3(1);
  params.blockDim = dim3(n);
  params.kernelParams = args;
  REQUIRE(cudaGraphAddKernelNode(&kernel, graph, &alloc_node, 1, &params) == cudaSuccess);
  REQUIRE(cudaGraphAddMemcpyNode1D(&copy, graph, &kernel, 1, back.data(), d, n * sizeof(int),
                                   cudaMemcpyDeviceToHost) == cudaSuccess);
  REQUIRE(cudaGraphAddMemFreeNode(&free_node, graph, &copy, 1, d) == cudaSuccess);
  int not_graph_memory = 0;
  cudaGraphNode_t bad;
  CHECK(cudaGraphAddMemFreeNode(&bad, graph, NULL, 0, &not_graph_memory) == cudaErrorInvalidValue);
  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  for (int launch = 0; launch < 3; ++launch) {
    back.assign(n, 0);
    REQUIRE(cudaGraphLaunch(exec, 0) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(0) == cudaSuccess);
    CHECK(back[5] == 45);
  }
  unsigned long long reserved = 0, used = 1;
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &reserved) == cudaSuccess);
  CHECK(reserved >= n * sizeof(int));
  CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used) == cudaSuccess);
  CHECK(used <= reserved);  // an H200 keeps it all associated with the graph after the free node: used == reserved
  CHECK(cudaDeviceGraphMemTrim(0) == cudaSuccess);
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
}

TEST_CASE("cudaMallocAsync and cudaFreeAsync captured into a graph, replayed twice") {
  const int n = 16;
  std::vector<int> back(n, 0);
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  REQUIRE(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  int* d = nullptr;
  REQUIRE(cudaMallocAsync(&d, n * sizeof(int), s) == cudaSuccess);
  fill<<<1, n, 0, s>>>(d, 7, n);
  REQUIRE(cudaMemcpyAsync(back.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s) == cudaSuccess);
  REQUIRE(cudaFreeAsync(d, s) == cudaSuccess);
  cudaGraph_t graph;
  REQUIRE(cudaStreamEndCapture(s, &graph) == cudaSuccess);
  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, graph, NULL, NULL, 0) == cudaSuccess);
  for (int launch = 0; launch < 2; ++launch) {
    back.assign(n, 0);
    REQUIRE(cudaGraphLaunch(exec, s) == cudaSuccess);
    REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
    CHECK(back[3] == 10);
  }
  CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
  CHECK(cudaGraphDestroy(graph) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
}
