// Conformance: launches whose arguments come as an array of pointers, with the
// kernel passed as itself or by address as the CUDA samples write it,
// `(void*)kernel`: cudaLaunchKernel, cudaLaunchCooperativeKernel, a kernel
// pointer kept in a `void*` variable, a kernel in a namespace, a template
// kernel written with a comma, and a graph's kernel node added by hand. The
// arguments are copied when the launch is made (or the node added), as on a
// GPU. A template kernel cast to void* by its name runs too; an address the
// emulator knows no kernel at (one that reached the void* through a function
// pointer) is refused: it says why, cudaErrorInvalidDeviceFunction, and
// nothing runs. The GPU's side is tests/gpu/probe_array_launch.cu.
#include <catch2/catch.hpp>
#include <cooperative_groups.h>
#include <string>
#include <vector>

#include "diagnostics_after.cuh"
#include "gpulab/emu/diagnostics_api.hpp"

namespace cg = cooperative_groups;

namespace {

__global__ void fill(int* out, int value, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value + i;
}

// Each block adds its slice, grid.sync(), then block 0 adds the partial sums.
__global__ void grid_total(const int* in, int* partial, int* total, int n) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int i = blockIdx.x; i < n; i += gridDim.x) s += in[i];
    partial[blockIdx.x] = s;
  }
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    int s = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) s += partial[b];
    *total = s;
  }
}

template <typename T, int Scale>
__global__ void scaled(T* out, T value) {
  out[threadIdx.x] = value * Scale;
}

std::vector<int> read(const int* d, int n) {
  std::vector<int> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost);
  return h;
}


}  // namespace

namespace shapes {
__global__ void square(int* out) { out[threadIdx.x] = static_cast<int>(threadIdx.x * threadIdx.x); }
}  // namespace shapes

TEST_CASE("cudaLaunchKernel with (void*)kernel, with the kernel itself, and through a void* variable") {
  const int n = 300;
  int* out;
  REQUIRE(cudaMalloc(&out, n * sizeof(int)) == cudaSuccess);
  int value = 7, count = n;
  void* args[] = {&out, &value, &count};
  REQUIRE(cudaLaunchKernel((void*)fill, dim3(3), dim3(128), args, 0, nullptr) == cudaSuccess);
  value = 1000;  // after the launch: the kernel has its own copy of 7
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<int> h = read(out, n);
  for (int i = 0; i < n; ++i) REQUIRE(h[i] == 7 + i);

  REQUIRE(cudaLaunchKernel(fill, dim3(3), dim3(128), args) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(read(out, n)[n - 1] == 1000 + n - 1);

  void* kernel = reinterpret_cast<void*>(&fill);
  value = 5;
  REQUIRE(cudaLaunchKernel(kernel, dim3(3), dim3(128), args, 0, 0) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(read(out, n)[10] == 15);

  void* square_args[] = {&out};
  REQUIRE(cudaLaunchKernel((const void*)shapes::square, dim3(1), dim3(32), square_args, 0, 0) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(read(out, 32)[31] == 961);
  cudaFree(out);
}

TEST_CASE("cudaLaunchCooperativeKernel with (void*)kernel runs grid.sync()") {
  const int n = 1000, blocks = 4;
  int *in, *partial, *total;
  REQUIRE(cudaMalloc(&in, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&partial, blocks * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&total, sizeof(int)) == cudaSuccess);
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = i % 17;
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  int count = n;
  void* args[] = {&in, &partial, &total, &count};
  REQUIRE(cudaLaunchCooperativeKernel((void*)grid_total, dim3(blocks), dim3(64), args, 0, nullptr) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  int expected = 0;
  for (int v : h) expected += v;
  CHECK(read(total, 1)[0] == expected);
  cudaFree(in);
  cudaFree(partial);
  cudaFree(total);
}

TEST_CASE("a template kernel runs as itself and by address, an unknown address is refused with a message") {
  int* out;
  REQUIRE(cudaMalloc(&out, 32 * sizeof(int)) == cudaSuccess);
  int value = 3;
  void* args[] = {&out, &value};
  REQUIRE(cudaLaunchKernel(scaled<int, 4>, dim3(1), dim3(32), args) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(read(out, 32)[5] == 12);
  REQUIRE(cudaLaunchKernel((void*)scaled<int, 2>, dim3(1), dim3(32), args) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(read(out, 32)[5] == 6);
  const void* kept = reinterpret_cast<const void*>(&scaled<int, 5>);
  REQUIRE(cudaLaunchKernel(kept, dim3(1), dim3(32), args) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(read(out, 32)[5] == 15);

  // Through a function-pointer variable, no kernel name is cast: nothing registered it.
  void (*through_pointer)(int*, int) = scaled<int, 7>;
  gpulab::emu::take_diagnostics();
  CHECK(cudaLaunchKernel((void*)through_pointer, dim3(1), dim3(32), args) == cudaErrorInvalidDeviceFunction);
  CHECK(cudaGetLastError() == cudaErrorInvalidDeviceFunction);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);  // not sticky: nothing ran
  CHECK(read(out, 32)[5] == 15);
  const auto found = gpulab::emu::take_diagnostics();
  REQUIRE(found.size() == 1);
  CHECK(has(found[0].message, "cudaLaunchKernel((void*)through_pointer, ...)"));
  CHECK(has(found[0].message, "no kernel the emulator knows is at that address"));
  CHECK(has(found[0].message, "function-pointer variable"));
  CHECK(has(found[0].message, "test_array_launch.cu"));
  cudaFree(out);
}

TEST_CASE("a graph's kernel node added by hand: arguments copied when it is added, run at each graph launch") {
  const int n = 64;
  int* out;
  REQUIRE(cudaMalloc(&out, n * sizeof(int)) == cudaSuccess);
  int value = 40, count = n;
  void* args[] = {&out, &value, &count};
  cudaKernelNodeParams params = {};
  params.func = (void*)fill;
  params.gridDim = dim3(2);
  params.blockDim = dim3(32);
  params.sharedMemBytes = 0;
  params.kernelParams = args;
  params.extra = nullptr;
  cudaGraph_t graph;
  REQUIRE(cudaGraphCreate(&graph, 0) == cudaSuccess);
  cudaGraphNode_t node;
  REQUIRE(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &params) == cudaSuccess);
  value = -1;  // after the node was added: the node keeps 40
  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  cudaStream_t stream;
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
  REQUIRE(cudaMemset(out, 0, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaGraphLaunch(exec, stream) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  CHECK(read(out, n)[n - 1] == 40 + n - 1);

  params.blockDim = dim3(2048);  // more threads than a block may have
  cudaGraphNode_t bad;
  CHECK(cudaGraphAddKernelNode(&bad, graph, nullptr, 0, &params) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(stream);
  cudaFree(out);
}
