// Prints what stream-ordered work does, as the samples on asynchronous
// launches, callbacks, stream-ordered allocation and CUDA graphs use it: the
// host runs on while a kernel executes, work in one stream runs in order,
// host functions and callbacks run after the work before them, cudaMallocAsync
// memory is usable in stream order, and a captured graph replays the same
// work. Run on a GPU, its output is recorded in expected/; the emulator must
// print the same lines.
#include <cstdio>
#include <string>

// Long enough (some milliseconds on a GPU) for the host to see it running.
__global__ void settle(float* data, int n, int rounds, float target) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = data[i];
  for (int r = 0; r < rounds; ++r) v = v * 0.5f + target * 0.5f;  // converges to target
  data[i] = v;
}

__global__ void set_value(int* x, int value) { *x = value; }
__global__ void times_ten_plus(int* x, int value) { *x = *x * 10 + value; }

static std::string log_text;
struct Note {
  const int* source;
  const char* label;
};
static void CUDART_CB note_host_func(void* user) {
  const Note* note = static_cast<const Note*>(user);
  log_text += std::string(note->label) + "=" + std::to_string(*note->source) + " ";
}
static void CUDART_CB note_callback(cudaStream_t, cudaError_t status, void* user) {
  log_text += std::string(static_cast<const char*>(user)) + "(" + cudaGetErrorName(status) + ") ";
}

int main() {
  // 1. The host runs on while the kernel executes.
  const int n = 1 << 14;
  float* data = nullptr;
  cudaMalloc(&data, n * sizeof(float));
  cudaMemset(data, 0, n * sizeof(float));
  cudaEvent_t done;
  cudaEventCreate(&done);
  settle<<<n / 256, 256>>>(data, n, 20000, 3.0f);
  cudaEventRecord(done);
  long host_iterations = 0;
  while (cudaEventQuery(done) == cudaErrorNotReady) ++host_iterations;
  std::printf("host ran while the kernel executed: %s\n", host_iterations > 0 ? "yes" : "no");
  float first = 0;
  cudaMemcpy(&first, data, sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("kernel result after the event: %.3f\n", first);

  // 2. Stream order, host functions and callbacks.
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  int* x = nullptr;
  int* host_x = nullptr;
  cudaMalloc(&x, sizeof(int));
  cudaMallocHost(&host_x, sizeof(int));
  *host_x = -1;
  Note after_copy{host_x, "host_func"};
  set_value<<<1, 1, 0, stream>>>(x, 1);
  times_ten_plus<<<1, 1, 0, stream>>>(x, 2);
  times_ten_plus<<<1, 1, 0, stream>>>(x, 3);
  cudaMemcpyAsync(host_x, x, sizeof(int), cudaMemcpyDeviceToHost, stream);
  cudaLaunchHostFunc(stream, note_host_func, &after_copy);
  cudaStreamAddCallback(stream, note_callback, const_cast<char*>("callback"), 0);
  std::printf("stream sync: %s\n", cudaGetErrorName(cudaStreamSynchronize(stream)));
  std::printf("in order: x=%d, log: %s\n", *host_x, log_text.c_str());

  // 3. Stream-ordered allocation, from the default pool and from a pool of our own.
  cudaMemPool_t pool;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  unsigned long long threshold = 1 << 20;
  std::printf("set release threshold: %s\n",
              cudaGetErrorName(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold)));
  int* scratch = nullptr;
  std::printf("cudaMallocAsync: %s\n", cudaGetErrorName(cudaMallocAsync(&scratch, 4 * sizeof(int), stream)));
  set_value<<<1, 1, 0, stream>>>(scratch, 41);
  times_ten_plus<<<1, 1, 0, stream>>>(scratch, 7);
  cudaMemcpyAsync(host_x, scratch, sizeof(int), cudaMemcpyDeviceToHost, stream);
  std::printf("cudaFreeAsync: %s\n", cudaGetErrorName(cudaFreeAsync(scratch, stream)));
  cudaStreamSynchronize(stream);
  std::printf("pool memory held %d\n", *host_x);
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t own_pool;
  std::printf("cudaMemPoolCreate: %s\n", cudaGetErrorName(cudaMemPoolCreate(&own_pool, &props)));
  int* from_pool = nullptr;
  std::printf("cudaMallocFromPoolAsync: %s\n",
              cudaGetErrorName(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&from_pool), sizeof(int), own_pool, stream)));
  set_value<<<1, 1, 0, stream>>>(from_pool, 5);
  cudaMemcpyAsync(host_x, from_pool, sizeof(int), cudaMemcpyDeviceToHost, stream);
  cudaFreeAsync(from_pool, stream);
  cudaStreamSynchronize(stream);
  std::printf("own pool memory held %d\n", *host_x);
  std::printf("cudaMemPoolDestroy: %s\n", cudaGetErrorName(cudaMemPoolDestroy(own_pool)));

  // 4. Prefetching managed memory to the device and back.
  int* managed = nullptr;
  cudaMallocManaged(&managed, sizeof(int));
  *managed = 6;
  cudaMemLocation device{};
  device.type = cudaMemLocationTypeDevice;
  device.id = 0;
  std::printf("prefetch to device: %s\n", cudaGetErrorName(cudaMemPrefetchAsync(managed, sizeof(int), device, 0, stream)));
  times_ten_plus<<<1, 1, 0, stream>>>(managed, 1);
  cudaMemLocation host{};
  host.type = cudaMemLocationTypeHost;
  std::printf("prefetch to host: %s\n", cudaGetErrorName(cudaMemPrefetchAsync(managed, sizeof(int), host, 0, stream)));
  cudaStreamSynchronize(stream);
  std::printf("managed value %d\n", *managed);

  // 5. A graph captured from the stream, replayed three times.
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  std::printf("begin capture: %s\n", cudaGetErrorName(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal)));
  cudaStreamCaptureStatus capturing = cudaStreamCaptureStatusNone;
  cudaStreamIsCapturing(stream, &capturing);
  std::printf("capturing: %s\n", capturing == cudaStreamCaptureStatusActive ? "yes" : "no");
  times_ten_plus<<<1, 1, 0, stream>>>(x, 1);
  times_ten_plus<<<1, 1, 0, stream>>>(x, 0);
  std::printf("end capture: %s\n", cudaGetErrorName(cudaStreamEndCapture(stream, &graph)));
  size_t nodes = 0;
  cudaGraphGetNodes(graph, nullptr, &nodes);
  std::printf("graph nodes: %zu\n", nodes);
  std::printf("instantiate: %s\n", cudaGetErrorName(cudaGraphInstantiate(&exec, graph, 0)));
  set_value<<<1, 1, 0, stream>>>(x, 0);
  for (int i = 0; i < 3; ++i) cudaGraphLaunch(exec, stream);
  cudaMemcpyAsync(host_x, x, sizeof(int), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  std::printf("after three replays x=%d\n", *host_x);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  cudaFreeHost(host_x);
  cudaFree(x);
  cudaFree(data);
  cudaFree(managed);
  std::printf("done\n");
  return 0;
}
