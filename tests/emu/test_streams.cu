// Conformance: stream-ordered work. A launch returns before its kernel has run
// and the host runs on; work in a stream runs in issue order; events, stream
// queries and synchronising calls wait for what they cover; host functions
// and callbacks run after the work before them; cudaMemcpyAsync with
// page-locked memory is queued, with pageable memory done before it returns;
// stream-ordered allocation and memory pools; managed-memory prefetch and
// advice, attachment to a stream; stream capture and graph replay, and graph nodes built by
// hand. The codes are CUDA 13's (tests/gpu/probe_streams_graphs.cu records a GPU's answers to the
// same calls). Plain CUDA: it also builds with nvcc (with tests/catch_main.cpp); on an H200 with
// CUDA 13.0 four of its checks answered otherwise, and the emulator now answers as it did.
#include <catch2/catch.hpp>
#include <atomic>
#include <string>
#include <vector>

namespace {

__global__ void settle(float* data, int n, int rounds, float target) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = data[i];
  for (int r = 0; r < rounds; ++r) v = v * 0.5f + target * 0.5f;
  data[i] = v;
}
__global__ void set_value(int* x, int value) { *x = value; }
__global__ void times_ten_plus(int* x, int value) { *x = *x * 10 + value; }

std::vector<std::string> host_log;
void CUDART_CB log_value(void* user) { host_log.push_back("value " + std::to_string(*static_cast<int*>(user))); }
void CUDART_CB log_callback(cudaStream_t, cudaError_t status, void* user) {
  host_log.push_back(std::string(static_cast<const char*>(user)) + " " + cudaGetErrorName(status));
}

}  // namespace

TEST_CASE("a kernel launch returns before the kernel has run, the event says when it is done") {
  const int n = 1 << 14;
  float* data = nullptr;
  REQUIRE(cudaMalloc(&data, n * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMemset(data, 0, n * sizeof(float)) == cudaSuccess);
  cudaEvent_t start, done;
  cudaEventCreate(&start);
  cudaEventCreate(&done);
  cudaEventRecord(start);
  settle<<<n / 256, 256>>>(data, n, 20000, 3.0f);
  cudaEventRecord(done);
  long host_iterations = 0;
  while (cudaEventQuery(done) == cudaErrorNotReady) ++host_iterations;
  CHECK(host_iterations > 0);
  CHECK(cudaEventQuery(done) == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);  // cudaErrorNotReady is an answer, not an error
  float ms = -1;
  CHECK(cudaEventElapsedTime(&ms, start, done) == cudaSuccess);
  CHECK(ms > 0);
  float first = 0;
  CHECK(cudaMemcpy(&first, data, sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(first == 3.0f);
  cudaEventDestroy(start);
  cudaEventDestroy(done);
  cudaFree(data);
}

TEST_CASE("cudaEventElapsedTime on an event whose record has not run yet is cudaErrorNotReady") {
  const int n = 1 << 14;
  float* data = nullptr;
  cudaMalloc(&data, n * sizeof(float));
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  settle<<<n / 256, 256>>>(data, n, 20000, 1.0f);
  cudaEventRecord(b);
  float ms = 0;
  const cudaError_t early = cudaEventElapsedTime(&ms, a, b);
  CHECK((early == cudaErrorNotReady || early == cudaSuccess));  // the kernel may just have finished
  cudaGetLastError();
  CHECK(cudaEventSynchronize(b) == cudaSuccess);
  CHECK(cudaEventElapsedTime(&ms, a, b) == cudaSuccess);
  cudaFree(data);
}

TEST_CASE("work in one stream runs in issue order, host functions and callbacks run after it") {
  host_log.clear();
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  int* x = nullptr;
  int* pinned = nullptr;
  cudaMalloc(&x, sizeof(int));
  REQUIRE(cudaMallocHost(&pinned, sizeof(int)) == cudaSuccess);
  *pinned = -1;
  set_value<<<1, 1, 0, s>>>(x, 1);
  times_ten_plus<<<1, 1, 0, s>>>(x, 2);
  times_ten_plus<<<1, 1, 0, s>>>(x, 3);
  CHECK(cudaMemcpyAsync(pinned, x, sizeof(int), cudaMemcpyDeviceToHost, s) == cudaSuccess);
  CHECK(cudaLaunchHostFunc(s, log_value, pinned) == cudaSuccess);
  CHECK(cudaStreamAddCallback(s, log_callback, const_cast<char*>("callback"), 0) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(cudaStreamQuery(s) == cudaSuccess);
  CHECK(*pinned == 123);
  REQUIRE(host_log.size() == 2);
  CHECK(host_log[0] == "value 123");
  CHECK(host_log[1] == "callback cudaSuccess");
  CHECK(cudaLaunchHostFunc(s, nullptr, nullptr) == cudaErrorInvalidValue);
  CHECK(cudaStreamAddCallback(s, log_callback, nullptr, 1) == cudaErrorInvalidValue);
  cudaGetLastError();
  cudaFreeHost(pinned);
  cudaFree(x);
  cudaStreamDestroy(s);
}

TEST_CASE("cudaMemcpyAsync into pageable memory is done when it returns") {
  cudaStream_t s;
  cudaStreamCreate(&s);
  int* x = nullptr;
  cudaMalloc(&x, sizeof(int));
  set_value<<<1, 1, 0, s>>>(x, 77);
  int pageable = 0;
  CHECK(cudaMemcpyAsync(&pageable, x, sizeof(int), cudaMemcpyDeviceToHost, s) == cudaSuccess);
  CHECK(pageable == 77);
  cudaFree(x);
  cudaStreamDestroy(s);
}

TEST_CASE("stream-ordered allocation from the default pool and from a pool of the program's own") {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemPool_t pool;
  REQUIRE(cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess);
  unsigned long long threshold = 1 << 20, read_back = 0;
  CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold) == cudaSuccess);
  CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &read_back) == cudaSuccess);
  CHECK(read_back == threshold);
  int* scratch = nullptr;
  REQUIRE(cudaMallocAsync(&scratch, 4 * sizeof(int), s) == cudaSuccess);
  unsigned long long used = 0;
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used);
  CHECK(used >= 4 * sizeof(int));
  set_value<<<1, 1, 0, s>>>(scratch, 41);
  int out = 0;
  CHECK(cudaMemcpyAsync(&out, scratch, sizeof(int), cudaMemcpyDeviceToHost, s) == cudaSuccess);
  CHECK(cudaFreeAsync(scratch, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(out == 41);
  scratch = reinterpret_cast<int*>(&out);  // anything but null
  CHECK(cudaMallocAsync(&scratch, 0, s) == cudaSuccess);  // as an H200 answers (CUDA 13.0)
  CHECK(scratch == nullptr);

  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t own;
  REQUIRE(cudaMemPoolCreate(&own, &props) == cudaSuccess);
  int* from_pool = nullptr;
  REQUIRE(cudaMallocFromPoolAsync(&from_pool, sizeof(int), own, s) == cudaSuccess);
  set_value<<<1, 1, 0, s>>>(from_pool, 5);
  cudaMemcpyAsync(&out, from_pool, sizeof(int), cudaMemcpyDeviceToHost, s);
  cudaFreeAsync(from_pool, s);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(out == 5);
  CHECK(cudaMemPoolDestroy(own) == cudaSuccess);
  props.location.id = 3;
  CHECK(cudaMemPoolCreate(&own, &props) == cudaErrorInvalidValue);  // as an H200 answers (CUDA 13.0)
  cudaGetLastError();
  cudaStreamDestroy(s);
}

TEST_CASE("managed memory attached to a stream stays usable by kernels and the host, unknown flags are refused") {
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  int* managed = nullptr;
  REQUIRE(cudaMallocManaged(&managed, sizeof(int), cudaMemAttachHost) == cudaSuccess);
  CHECK(cudaStreamAttachMemAsync(s, managed) == cudaSuccess);
  set_value<<<1, 1, 0, s>>>(managed, 9);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(*managed == 9);
  CHECK(cudaStreamAttachMemAsync(s, managed, 0, cudaMemAttachHost) == cudaSuccess);
  CHECK(cudaStreamAttachMemAsync(s, managed, 0, 0x40) == cudaErrorInvalidValue);
  cudaGetLastError();
  cudaFree(managed);
  cudaStreamDestroy(s);
}

TEST_CASE("prefetch and advice take managed memory and refuse other ranges") {
  int* managed = nullptr;
  REQUIRE(cudaMallocManaged(&managed, 16 * sizeof(int)) == cudaSuccess);
  cudaMemLocation device{cudaMemLocationTypeDevice, 0};
  cudaMemLocation host{cudaMemLocationTypeHost, 0};
  CHECK(cudaMemPrefetchAsync(managed, 16 * sizeof(int), device, 0, 0) == cudaSuccess);
  CHECK(cudaMemAdvise(managed, 16 * sizeof(int), cudaMemAdviseSetReadMostly, device) == cudaSuccess);
  CHECK(cudaMemPrefetchAsync(managed, 16 * sizeof(int), host, 0, 0) == cudaSuccess);
  CHECK(cudaMemPrefetchAsync(managed, 17 * sizeof(int), device, 0, 0) == cudaErrorInvalidValue);
  cudaGetLastError();
  cudaMemLocation other{cudaMemLocationTypeDevice, 5};
  CHECK(cudaMemPrefetchAsync(managed, 16 * sizeof(int), other, 0, 0) == cudaErrorInvalidDevice);
  cudaGetLastError();
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaFree(managed);
}

TEST_CASE("a graph captured from a stream replays its launches, capture does not run them") {
  cudaStream_t s;
  cudaStreamCreate(&s);
  int* x = nullptr;
  cudaMallocManaged(&x, sizeof(int));
  *x = 7;
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  REQUIRE(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  CHECK(cudaStreamIsCapturing(s, &status) == cudaSuccess);
  CHECK(status == cudaStreamCaptureStatusActive);
  times_ten_plus<<<1, 1, 0, s>>>(x, 1);
  times_ten_plus<<<1, 1, 0, s>>>(x, 0);
  REQUIRE(cudaStreamEndCapture(s, &graph) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(*x == 7);  // captured, not run
  size_t nodes = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &nodes) == cudaSuccess);
  CHECK(nodes == 2);
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  *x = 0;
  for (int i = 0; i < 3; ++i) CHECK(cudaGraphLaunch(exec, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(*x == 101010);
  CHECK(cudaStreamIsCapturing(s, &status) == cudaSuccess);
  CHECK(status == cudaStreamCaptureStatusNone);
  CHECK(cudaStreamEndCapture(s, &graph) == cudaErrorIllegalState);
  cudaGetLastError();
  CHECK(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal) == cudaErrorStreamCaptureUnsupported);
  cudaGetLastError();
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaFree(x);
  cudaStreamDestroy(s);
}

TEST_CASE("a second stream joins a capture through an event and its work is replayed too") {
  cudaStream_t a, b;
  cudaStreamCreate(&a);
  cudaStreamCreate(&b);
  cudaEvent_t fork, join;
  cudaEventCreate(&fork);
  cudaEventCreate(&join);
  int* x = nullptr;
  cudaMallocManaged(&x, sizeof(int));
  cudaGraph_t graph;
  REQUIRE(cudaStreamBeginCapture(a, cudaStreamCaptureModeGlobal) == cudaSuccess);
  set_value<<<1, 1, 0, a>>>(x, 4);
  cudaEventRecord(fork, a);
  cudaStreamWaitEvent(b, fork, 0);
  times_ten_plus<<<1, 1, 0, b>>>(x, 2);
  cudaEventRecord(join, b);
  cudaStreamWaitEvent(a, join, 0);
  REQUIRE(cudaStreamEndCapture(a, &graph) == cudaSuccess);
  size_t nodes = 0;
  cudaGraphGetNodes(graph, nullptr, &nodes);
  CHECK(nodes == 2);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusActive;
  cudaStreamIsCapturing(b, &status);
  CHECK(status == cudaStreamCaptureStatusNone);
  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  cudaGraphLaunch(exec, a);
  CHECK(cudaStreamSynchronize(a) == cudaSuccess);
  CHECK(*x == 42);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaFree(x);
}

TEST_CASE("synchronising a capturing stream is refused and invalidates the capture, as on a GPU") {
  // An H200 (CUDA 13.0) answers cudaErrorStreamCaptureUnsupported to the synchronisation, then
  // cudaErrorStreamCaptureInvalidated to the end of the capture, with no graph.
  cudaStream_t s;
  cudaStreamCreate(&s);
  int* x = nullptr;
  cudaMallocManaged(&x, sizeof(int));
  *x = 7;
  REQUIRE(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
  times_ten_plus<<<1, 1, 0, s>>>(x, 1);
  CHECK(cudaStreamSynchronize(s) == cudaErrorStreamCaptureUnsupported);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  CHECK(cudaStreamIsCapturing(s, &status) == cudaSuccess);
  CHECK(status == cudaStreamCaptureStatusInvalidated);
  cudaGraph_t graph = reinterpret_cast<cudaGraph_t>(&status);  // anything but null
  CHECK(cudaStreamEndCapture(s, &graph) == cudaErrorStreamCaptureInvalidated);
  CHECK(graph == nullptr);
  cudaGetLastError();
  CHECK(cudaStreamIsCapturing(s, &status) == cudaSuccess);
  CHECK(status == cudaStreamCaptureStatusNone);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(*x == 7);  // nothing captured ran
  cudaFree(x);
  cudaStreamDestroy(s);
}

TEST_CASE("graphs built by hand: host and memset nodes run in order, a kernel node without a kernel is refused") {
  host_log.clear();
  int* x = nullptr;
  cudaMallocManaged(&x, 4 * sizeof(int));
  cudaGraph_t graph;
  REQUIRE(cudaGraphCreate(&graph, 0) == cudaSuccess);
  cudaGraphNode_t memset_node, host_node, empty_node;
  cudaMemsetParams m{};
  m.dst = x;
  m.value = 9;
  m.elementSize = 4;
  m.width = 4;
  m.height = 1;
  CHECK(cudaGraphAddMemsetNode(&memset_node, graph, nullptr, 0, &m) == cudaSuccess);
  cudaHostNodeParams h{log_value, x + 3};
  CHECK(cudaGraphAddHostNode(&host_node, graph, &memset_node, 1, &h) == cudaSuccess);
  CHECK(cudaGraphAddEmptyNode(&empty_node, graph, &host_node, 1) == cudaSuccess);
  cudaKernelNodeParams k{};
  cudaGraphNode_t kernel_node;
  // No kernel at params.func (null): cudaErrorInvalidDeviceFunction, as an H200 answers (CUDA 13.0).
  CHECK(cudaGraphAddKernelNode(&kernel_node, graph, nullptr, 0, &k) == cudaErrorInvalidDeviceFunction);
  cudaGetLastError();
  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  CHECK(cudaGraphLaunch(exec, 0) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(x[0] == 9);
  REQUIRE(host_log.size() == 1);
  CHECK(host_log[0] == "value 9");
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaFree(x);
}

TEST_CASE("a kernel's fault reaches the synchronising call after the launch, as on a GPU") {
  set_value<<<1, 1>>>(nullptr, 1);
  CHECK(cudaGetLastError() == cudaSuccess);  // the launch itself was valid
  CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
  CHECK(cudaDeviceReset() == cudaSuccess);
}
