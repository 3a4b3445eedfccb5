// Conformance: copies take their direction from their pointers, as CUDA 13 does on an H200
// (tests/gpu/expected/probe_copy_kinds.txt has the whole cudaMemcpy table, checked by the probe
// test); the harness's copy observer hears that direction, never the declared kind; a launch whose
// pointer argument is host memory a GPU cannot reach fails with cudaErrorIllegalAddress at the next
// synchronisation and does not run; a device variable named through cudaGetSymbolAddress is device
// memory. Uses the emulator's observer (gpulab/emu/copy_observer.hpp), so it is emulator-only.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "gpulab/emu/copy_observer.hpp"

namespace {
struct Seen {
  void* dst;
  const void* src;
  size_t bytes;
  cudaMemcpyKind kind;
};
std::vector<Seen> seen;
void remember(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
  seen.push_back({dst, src, bytes, kind});
}

__global__ void store(int* out, int value) { *out = value; }
__global__ void read_into(const int* in, int* out) { *out = *in; }

__device__ int device_variable[4];
int host_variable[4];
}  // namespace

TEST_CASE("the copy observer hears the direction the pointers give, whatever the kind says") {
  seen.clear();
  gpulab::emu::harness_observe_copies(&remember);
  int* d = nullptr;
  int* managed = nullptr;
  int* pinned = nullptr;
  REQUIRE(cudaMalloc(&d, 64) == cudaSuccess);
  REQUIRE(cudaMallocManaged(&managed, 64) == cudaSuccess);
  REQUIRE(cudaMallocHost(&pinned, 64) == cudaSuccess);
  int host[16] = {};
  CHECK(cudaMemcpy(d, host, 64, cudaMemcpyHostToHost) == cudaSuccess);        // host to device
  CHECK(cudaMemcpy(host, d, 64, cudaMemcpyDefault) == cudaSuccess);           // device to host
  CHECK(cudaMemcpy(pinned, d, 64, cudaMemcpyDeviceToDevice) == cudaSuccess);  // into page-locked: host
  CHECK(cudaMemcpy(managed, d, 64, cudaMemcpyHostToDevice) == cudaSuccess);   // into managed: host
  CHECK(cudaMemcpy(d, managed, 64, cudaMemcpyHostToHost) == cudaSuccess);     // from managed: host to device
  CHECK(cudaMemcpyToSymbol(device_variable, host, sizeof device_variable) == cudaSuccess);
  gpulab::emu::harness_observe_copies(nullptr);
  REQUIRE(seen.size() == 6);
  CHECK(seen[0].kind == cudaMemcpyHostToDevice);
  CHECK(seen[1].kind == cudaMemcpyDeviceToHost);
  CHECK(seen[2].kind == cudaMemcpyDeviceToHost);
  CHECK(seen[3].kind == cudaMemcpyDeviceToHost);
  CHECK(seen[4].kind == cudaMemcpyHostToDevice);
  CHECK(seen[5].kind == cudaMemcpyHostToDevice);
  cudaFree(d);
  cudaFree(managed);
  cudaFreeHost(pinned);
}

TEST_CASE("pageable memory declared as the device side is refused and nothing is copied") {
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMemset(d, 0, sizeof(int)) == cudaSuccess);
  int host = 7;
  CHECK(cudaMemcpy(d, &host, sizeof host, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaMemcpyAsync(d, &host, sizeof host, cudaMemcpyDeviceToDevice) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaMemcpyToSymbol(device_variable, &host, sizeof host, 0, cudaMemcpyDeviceToDevice) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  int back = -1;
  REQUIRE(cudaMemcpy(&back, d, sizeof back, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back == 0);
  int other = 0;
  CHECK(cudaMemcpy(&other, &host, sizeof host, cudaMemcpyHostToHost) == cudaSuccess);
  CHECK(other == 7);
  cudaFree(d);
}

TEST_CASE("a graph's memcpy node copies device to device whatever kind it declares") {
  int* a = nullptr;
  int* b = nullptr;
  REQUIRE(cudaMalloc(&a, sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&b, sizeof(int)) == cudaSuccess);
  store<<<1, 1>>>(a, 41);
  cudaGraph_t graph;
  REQUIRE(cudaGraphCreate(&graph, 0) == cudaSuccess);
  cudaGraphNode_t node;
  REQUIRE(cudaGraphAddMemcpyNode1D(&node, graph, nullptr, 0, b, a, sizeof(int), cudaMemcpyHostToHost) == cudaSuccess);
  cudaGraphExec_t exec;
  REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
  REQUIRE(cudaGraphLaunch(exec, 0) == cudaSuccess);
  int back = 0;
  REQUIRE(cudaMemcpy(&back, b, sizeof back, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back == 41);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaFree(a);
  cudaFree(b);
}

TEST_CASE("cudaPointerGetAttributes tells device, managed, page-locked and pageable memory apart") {
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, 64) == cudaSuccess);
  cudaPointerAttributes a{};
  REQUIRE(cudaPointerGetAttributes(&a, d + 3) == cudaSuccess);
  CHECK(a.type == cudaMemoryTypeDevice);
  CHECK(a.hostPointer == nullptr);
  int local = 0;
  REQUIRE(cudaPointerGetAttributes(&a, &local) == cudaSuccess);
  CHECK(a.type == cudaMemoryTypeUnregistered);
  CHECK(a.devicePointer == nullptr);
  void* symbol = nullptr;
  REQUIRE(cudaGetSymbolAddress(&symbol, device_variable) == cudaSuccess);
  REQUIRE(cudaPointerGetAttributes(&a, symbol) == cudaSuccess);
  CHECK(a.type == cudaMemoryTypeDevice);
  REQUIRE(cudaPointerGetAttributes(&a, host_variable) == cudaSuccess);
  CHECK(a.type == cudaMemoryTypeUnregistered);
  cudaFree(d);
}

TEST_CASE("a kernel given malloc'd memory does not run and the next synchronisation says cudaErrorIllegalAddress") {
  int* out = nullptr;
  REQUIRE(cudaMalloc(&out, sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMemset(out, 0, sizeof(int)) == cudaSuccess);
  int* heap = static_cast<int*>(std::malloc(sizeof(int)));
  *heap = 5;
  read_into<<<1, 1>>>(heap, out);
  CHECK(cudaGetLastError() == cudaSuccess);  // as on a GPU: the launch itself is valid
  CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
  std::free(heap);
  REQUIRE(cudaDeviceReset() == cudaSuccess);
}

TEST_CASE("a kernel given a host variable's address fails, a __device__ variable's runs") {
  int* out = nullptr;
  REQUIRE(cudaMalloc(&out, sizeof(int)) == cudaSuccess);
  void* symbol = nullptr;
  REQUIRE(cudaGetSymbolAddress(&symbol, device_variable) == cudaSuccess);
  store<<<1, 1>>>(static_cast<int*>(symbol), 9);
  read_into<<<1, 1>>>(static_cast<int*>(symbol), out);
  int back = 0;
  REQUIRE(cudaMemcpy(&back, out, sizeof back, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back == 9);
  store<<<1, 1>>>(host_variable, 1);
  CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
  CHECK(host_variable[0] == 0);
  REQUIRE(cudaDeviceReset() == cudaSuccess);
}
