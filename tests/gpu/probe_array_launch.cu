// Prints what launches by argument array do, as the samples on cooperative
// groups and hand-built CUDA graphs write them: the kernel passed as
// `(void*)kernel` to cudaLaunchKernel and cudaLaunchCooperativeKernel, a
// kernel pointer kept in a variable, arguments copied when the launch is made,
// a graph whose kernel nodes are added by hand (cudaKernelNodeParams, a
// dependency between two nodes, replayed twice), and the codes returned for a
// block too large and for a null kernel. Run on a GPU, its output is recorded
// in expected/; the emulator must print the same lines.
#include <cooperative_groups.h>
#include <cstdio>

namespace cg = cooperative_groups;

__global__ void fillRamp(int* out, int start, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = start + i;
}

__global__ void addOne(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += 1;
}

// Block sums, grid.sync(), then block 0 adds them up.
__global__ void gridSum(const int* in, int* partial, int* total, int n) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int i = blockIdx.x; i < n; i += gridDim.x) s += in[i];
    partial[blockIdx.x] = s;
  }
  grid.sync();
  if (grid.thread_rank() == 0) {
    int s = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) s += partial[b];
    *total = s;
  }
}

template <typename T, int Scale>
__global__ void scaledFill(T* out, T value) {
  out[threadIdx.x] = value * Scale;
}

static int sumOf(const int* d, int n) {
  int h[512];
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  int s = 0;
  for (int i = 0; i < n; ++i) s += h[i];
  return s;
}

int main() {
  const int n = 500;
  int *data, *partial, *total;
  cudaMalloc(&data, n * sizeof(int));
  cudaMalloc(&partial, 8 * sizeof(int));
  cudaMalloc(&total, sizeof(int));

  // 1. (void*)kernel with an argument array; the arguments are read at the launch.
  int start = 3, count = n;
  void* fillArgs[] = {&data, &start, &count};
  cudaError_t e = cudaLaunchKernel((void*)fillRamp, dim3(4), dim3(128), fillArgs, 0, nullptr);
  start = 1000;
  cudaError_t s = cudaDeviceSynchronize();
  std::printf("cudaLaunchKernel((void*)fillRamp): %s, sync %s, sum %d\n", cudaGetErrorName(e), cudaGetErrorName(s),
              sumOf(data, n));

  // 2. The kernel itself, and a pointer kept in a void* variable.
  e = cudaLaunchKernel(fillRamp, dim3(4), dim3(128), fillArgs);
  cudaDeviceSynchronize();
  std::printf("cudaLaunchKernel(fillRamp): %s, sum %d\n", cudaGetErrorName(e), sumOf(data, n));
  void* kernel = (void*)addOne;
  void* addArgs[] = {&data, &count};
  e = cudaLaunchKernel(kernel, dim3(4), dim3(128), addArgs, 0, 0);
  cudaDeviceSynchronize();
  std::printf("cudaLaunchKernel(void* variable): %s, sum %d\n", cudaGetErrorName(e), sumOf(data, n));
  int value = 6;
  void* scaledArgs[] = {&data, &value};
  e = cudaLaunchKernel(scaledFill<int, 3>, dim3(1), dim3(32), scaledArgs);
  cudaDeviceSynchronize();
  std::printf("cudaLaunchKernel(scaledFill<int, 3>): %s, sum %d\n", cudaGetErrorName(e), sumOf(data, 32));

  // 3. A cooperative launch by address.
  start = 1;
  cudaLaunchKernel((void*)fillRamp, dim3(4), dim3(128), fillArgs, 0, nullptr);
  void* sumArgs[] = {&data, &partial, &total, &count};
  e = cudaLaunchCooperativeKernel((void*)gridSum, dim3(8), dim3(64), sumArgs, 0, nullptr);
  s = cudaDeviceSynchronize();
  int h = 0;
  cudaMemcpy(&h, total, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("cudaLaunchCooperativeKernel((void*)gridSum): %s, sync %s, total %d\n", cudaGetErrorName(e),
              cudaGetErrorName(s), h);

  // 4. A graph built by hand: fillRamp, then addOne after it; replayed twice.
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  cudaKernelNodeParams params = {};
  params.func = (void*)fillRamp;
  params.gridDim = dim3(4, 1, 1);
  params.blockDim = dim3(128, 1, 1);
  params.sharedMemBytes = 0;
  params.kernelParams = fillArgs;
  params.extra = nullptr;
  start = 10;
  cudaGraphNode_t fillNode, addNode;
  e = cudaGraphAddKernelNode(&fillNode, graph, nullptr, 0, &params);
  start = -5000;  // after the node was added
  params.func = (void*)addOne;
  params.kernelParams = addArgs;
  cudaError_t e2 = cudaGraphAddKernelNode(&addNode, graph, &fillNode, 1, &params);
  size_t nodes = 0;
  cudaGraphGetNodes(graph, nullptr, &nodes);
  cudaGraphExec_t exec;
  cudaError_t e3 = cudaGraphInstantiate(&exec, graph, 0);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaMemset(data, 0, n * sizeof(int));
  cudaGraphLaunch(exec, stream);
  cudaGraphLaunch(exec, stream);
  s = cudaStreamSynchronize(stream);
  std::printf("kernel nodes by hand: add %s, %s, %zu nodes, instantiate %s, sync %s, sum %d\n", cudaGetErrorName(e),
              cudaGetErrorName(e2), nodes, cudaGetErrorName(e3), cudaGetErrorName(s), sumOf(data, n));

  // 5. Codes for a block too large and for a null kernel.
  e = cudaLaunchKernel((void*)fillRamp, dim3(1), dim3(2048), fillArgs, 0, nullptr);
  std::printf("cudaLaunchKernel, 2048-thread block: %s, then cudaGetLastError %s\n", cudaGetErrorName(e),
              cudaGetErrorName(cudaGetLastError()));
  params.blockDim = dim3(2048, 1, 1);
  cudaGraphNode_t badNode;
  e = cudaGraphAddKernelNode(&badNode, graph, nullptr, 0, &params);
  std::printf("cudaGraphAddKernelNode, 2048-thread block: %s, then cudaGetLastError %s\n", cudaGetErrorName(e),
              cudaGetErrorName(cudaGetLastError()));
  e = cudaLaunchKernel((const void*)nullptr, dim3(1), dim3(32), fillArgs, 0, nullptr);
  std::printf("cudaLaunchKernel(nullptr): %s, then cudaGetLastError %s\n", cudaGetErrorName(e),
              cudaGetErrorName(cudaGetLastError()));
  std::printf("device still usable: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));

  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  cudaFree(data);
  cudaFree(partial);
  cudaFree(total);
  return 0;
}
