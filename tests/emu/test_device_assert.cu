// Conformance: assert() in a kernel. A failing assert does not end the
// program: the failing thread prints CUDA's message (file:line: function:
// block: [x,y,z], thread: [x,y,z] Assertion `cond` failed.), the kernel stops,
// the next synchronising call returns cudaErrorAssert and, as on a GPU, so does
// every later call (the error is sticky) until cudaDeviceReset. A passing
// assert changes nothing.
// Plain CUDA: it also builds with nvcc, and every case holds on an H100 with CUDA 13.0.
#include <catch2/catch.hpp>

#undef NDEBUG  // the test build is a release build; assert must stay in
#include <cassert>

namespace {
__global__ void check_positive(const int* data, int n, int* done) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    assert(data[i] > 0);
    atomicAdd(done, 1);
  }
}

int* device_values(int n, int bad_index) {
  int* h = new int[n];
  for (int i = 0; i < n; ++i) h[i] = i == bad_index ? -1 : i + 1;
  int* d = nullptr;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
  delete[] h;
  return d;
}
}  // namespace

TEST_CASE("a passing assert in a kernel changes nothing") {
  const int n = 256;
  int* data = device_values(n, -1);
  int* done = nullptr;
  REQUIRE(cudaMalloc(&done, sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMemset(done, 0, sizeof(int)) == cudaSuccess);
  check_positive<<<2, 128>>>(data, n, done);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  int h = 0;
  REQUIRE(cudaMemcpy(&h, done, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(h == n);
}

TEST_CASE("a failing assert in a kernel is cudaErrorAssert at the next synchronisation, and sticky") {
  const int n = 256;
  int* data = device_values(n, 200);
  int* done = nullptr;
  REQUIRE(cudaMalloc(&done, sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMemset(done, 0, sizeof(int)) == cudaSuccess);
  check_positive<<<2, 128>>>(data, n, done);
  CHECK(cudaGetLastError() == cudaSuccess);  // the launch itself was valid
  CHECK(cudaDeviceSynchronize() == cudaErrorAssert);
  CHECK(cudaGetLastError() == cudaErrorAssert);
  // Sticky: the context is unusable, every later call reports the assert.
  int h = 0;
  CHECK(cudaMemcpy(&h, done, sizeof h, cudaMemcpyDeviceToHost) == cudaErrorAssert);
  int* more = nullptr;
  CHECK(cudaMalloc(&more, 16) == cudaErrorAssert);
  CHECK(cudaDeviceSynchronize() == cudaErrorAssert);
  // A reset gives a fresh context.
  CHECK(cudaDeviceReset() == cudaSuccess);
  CHECK(cudaMalloc(&more, 16) == cudaSuccess);
  CHECK(cudaFree(more) == cudaSuccess);
}
