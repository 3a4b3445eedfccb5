// Conformance: page-locked and mapped host memory. cudaHostAlloc (flags, the
// typed overload), cudaMallocHost, cudaFreeHost of memory it did not allocate,
// cudaHostRegister/cudaHostUnregister and their misuse codes, and kernels
// reading and writing host memory through cudaHostGetDevicePointer (zero-copy),
// as CUDA 13 does on an H100 with unified addressing.
// Plain CUDA: it also builds with nvcc, and every case holds on an H100 with CUDA 13.0.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <vector>

namespace {
__global__ void scale(float* data, int n, float factor) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}
}  // namespace

TEST_CASE("cudaSetDeviceFlags(cudaDeviceMapHost) succeeds, unknown flags are cudaErrorInvalidValue") {
  CHECK(cudaSetDeviceFlags(cudaDeviceMapHost) == cudaSuccess);
  unsigned flags = 0;
  REQUIRE(cudaGetDeviceFlags(&flags) == cudaSuccess);
  CHECK((flags & cudaDeviceMapHost) != 0);
  CHECK(cudaSetDeviceFlags(0x100) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
}

TEST_CASE("a kernel writes mapped host memory from cudaHostAlloc through its device pointer") {
  REQUIRE(cudaSetDeviceFlags(cudaDeviceMapHost) == cudaSuccess);
  const int n = 1000;
  float* host = nullptr;
  REQUIRE(cudaHostAlloc(&host, n * sizeof(float), cudaHostAllocMapped | cudaHostAllocPortable) == cudaSuccess);
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i);
  float* device = nullptr;
  REQUIRE(cudaHostGetDevicePointer(&device, host, 0) == cudaSuccess);
  REQUIRE(device != nullptr);
  scale<<<(n + 255) / 256, 256>>>(device, n, 2.0f);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += host[i] != 2.0f * i;
  CHECK(wrong == 0);
  unsigned flags = 0;
  CHECK(cudaHostGetFlags(&flags, host) == cudaSuccess);
  CHECK((flags & cudaHostAllocMapped) != 0);
  CHECK(cudaFreeHost(host) == cudaSuccess);
}

TEST_CASE("cudaMallocHost and cudaHostAlloc with write-combining give usable memory, cudaFreeHost(nullptr) succeeds") {
  int* a = nullptr;
  double* b = nullptr;
  REQUIRE(cudaMallocHost(&a, 64 * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaHostAlloc(&b, 64 * sizeof(double), cudaHostAllocWriteCombined) == cudaSuccess);
  void* c = nullptr;
  REQUIRE(cudaMallocHost(&c, 128, cudaHostAllocDefault) == cudaSuccess);
  for (int i = 0; i < 64; ++i) a[i] = i, b[i] = i;
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, 64 * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemcpy(d, a, 64 * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
  std::vector<int> back(64, -1);
  CHECK(cudaMemcpy(back.data(), d, 64 * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back[63] == 63);
  CHECK(cudaFree(d) == cudaSuccess);
  CHECK(cudaFreeHost(a) == cudaSuccess);
  CHECK(cudaFreeHost(b) == cudaSuccess);
  CHECK(cudaFreeHost(c) == cudaSuccess);
  CHECK(cudaFreeHost(nullptr) == cudaSuccess);
}

TEST_CASE("cudaHostAlloc with unknown flags is cudaErrorInvalidValue") {
  void* p = nullptr;
  CHECK(cudaHostAlloc(&p, 256, 0x80) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
}

TEST_CASE("cudaFreeHost of memory from malloc is cudaErrorInvalidValue") {
  void* p = std::malloc(4096);
  CHECK(cudaFreeHost(p) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  std::free(p);
}

TEST_CASE("cudaHostRegister: a kernel uses registered memory, registering twice and unregistering twice fail") {
  const int n = 4096;
  float* host = static_cast<float*>(std::aligned_alloc(4096, n * sizeof(float)));
  REQUIRE(host != nullptr);
  for (int i = 0; i < n; ++i) host[i] = 1.0f;
  REQUIRE(cudaHostRegister(host, n * sizeof(float), cudaHostRegisterMapped) == cudaSuccess);
  CHECK(cudaHostRegister(host, n * sizeof(float), cudaHostRegisterMapped) == cudaErrorHostMemoryAlreadyRegistered);
  CHECK(cudaGetLastError() == cudaErrorHostMemoryAlreadyRegistered);

  float* device = nullptr;
  REQUIRE(cudaHostGetDevicePointer(&device, host, 0) == cudaSuccess);
  scale<<<n / 256, 256>>>(device, n, 3.0f);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(host[0] == 3.0f);
  CHECK(host[n - 1] == 3.0f);

  CHECK(cudaHostUnregister(host) == cudaSuccess);
  CHECK(cudaHostUnregister(host) == cudaErrorHostMemoryNotRegistered);
  CHECK(cudaGetLastError() == cudaErrorHostMemoryNotRegistered);
  std::free(host);
}

TEST_CASE("cudaHostUnregister of memory never registered is cudaErrorHostMemoryNotRegistered") {
  std::vector<int> v(1024);
  CHECK(cudaHostUnregister(v.data()) == cudaErrorHostMemoryNotRegistered);
  CHECK(cudaGetLastError() == cudaErrorHostMemoryNotRegistered);
}

TEST_CASE("cudaHostGetDevicePointer of pageable memory is cudaErrorInvalidValue") {
  std::vector<int> v(1024);
  void* device = nullptr;
  CHECK(cudaHostGetDevicePointer(&device, v.data(), 0) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
}
