// Conformance: the host runtime API. cudaMalloc/cudaFree (null and double
// frees), cudaMemcpy in all four directions and with cudaMemcpyDefault,
// cudaMemcpyAsync, cudaMemset, copies past an allocation (error, memory
// unchanged), cudaGetLastError vs cudaPeekAtLastError, error names and
// strings, device count and properties, events and streams. The expected
// codes are CUDA 13's as measured on a GPU (tests/gpu/).
// Plain CUDA: it also builds with nvcc (with tests/catch_main.cpp), and every
// case passes on an H100 with CUDA 13.0 (driver 580).
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

__global__ void add_one(int* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1;
}

std::vector<int> pattern(int n, int seed) {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = seed + i * 3;
  return v;
}

}  // namespace

TEST_CASE("cudaMalloc and cudaFree: cudaFree(nullptr) succeeds, a second free is cudaErrorInvalidValue") {
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, 1000 * sizeof(int)) == cudaSuccess);
  CHECK(d != nullptr);
  CHECK(reinterpret_cast<uintptr_t>(d) % 256 == 0);
  CHECK(cudaFree(nullptr) == cudaSuccess);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
  CHECK(cudaFree(d) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaSuccess);

  void* zero = reinterpret_cast<void*>(1);
  CHECK(cudaMalloc(&zero, 0) == cudaSuccess);
  CHECK(zero == nullptr);
}

TEST_CASE("cudaMemcpy in all four directions and with cudaMemcpyDefault") {
  const int n = 300;
  const std::vector<int> src = pattern(n, 11);
  int *a = nullptr, *b = nullptr;
  REQUIRE(cudaMalloc(&a, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&b, n * sizeof(int)) == cudaSuccess);

  std::vector<int> host(n, 0), out(n, 0);
  CHECK(cudaMemcpy(host.data(), src.data(), n * sizeof(int), cudaMemcpyHostToHost) == cudaSuccess);
  CHECK(host == src);
  CHECK(cudaMemcpy(a, src.data(), n * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(b, a, n * sizeof(int), cudaMemcpyDeviceToDevice) == cudaSuccess);
  CHECK(cudaMemcpy(out.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(out == src);

  const std::vector<int> other = pattern(n, -500);
  std::vector<int> h2(n, 0), h3(n, 0);
  CHECK(cudaMemcpy(a, other.data(), n * sizeof(int), cudaMemcpyDefault) == cudaSuccess);   // host -> device
  CHECK(cudaMemcpy(b + 10, a, 100 * sizeof(int), cudaMemcpyDefault) == cudaSuccess);       // device -> device
  CHECK(cudaMemcpy(h2.data(), b, n * sizeof(int), cudaMemcpyDefault) == cudaSuccess);      // device -> host
  CHECK(cudaMemcpy(h3.data(), h2.data(), n * sizeof(int), cudaMemcpyDefault) == cudaSuccess);  // host -> host
  for (int i = 0; i < n; ++i) {
    const int expected = i >= 10 && i < 110 ? other[i - 10] : src[i];
    REQUIRE(h2[i] == expected);
    REQUIRE(h3[i] == expected);
  }
  CHECK(cudaGetLastError() == cudaSuccess);
  cudaFree(a);
  cudaFree(b);
}

TEST_CASE("cudaMemcpyAsync and cudaMemset") {
  const int n = 256;
  const std::vector<int> src = pattern(n, 7);
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess);
  cudaStream_t s;
  REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
  CHECK(cudaMemcpyAsync(d, src.data(), n * sizeof(int), cudaMemcpyHostToDevice, s) == cudaSuccess);
  add_one<<<2, 128, 0, s>>>(d, n);
  std::vector<int> out(n, 0);
  CHECK(cudaMemcpyAsync(out.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost, s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaSuccess);
  for (int i = 0; i < n; ++i) REQUIRE(out[i] == src[i] + 1);
  CHECK(cudaMemcpyAsync(d, src.data(), n * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);  // default stream
  CHECK(cudaDeviceSynchronize() == cudaSuccess);

  // cudaMemset sets bytes.
  CHECK(cudaMemset(d, 0x01, n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemset(d + 10, 0, 5 * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemset(d + 20, 0xff, sizeof(int)) == cudaSuccess);
  cudaMemcpy(out.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) {
    const int expected = i >= 10 && i < 15 ? 0 : (i == 20 ? -1 : 0x01010101);
    REQUIRE(out[i] == expected);
  }
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  cudaFree(d);
}

TEST_CASE("a cudaMemcpy past the end of an allocation is cudaErrorInvalidValue and changes nothing") {
  const int n = 256;  // 1024 bytes
  const std::vector<int> src = pattern(n, 1);
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMemcpy(d, src.data(), n * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);

  const std::vector<int> big(2 * n, -9);
  CHECK(cudaMemcpy(d, big.data(), 2 * n * sizeof(int), cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaMemcpy(d + 200, big.data(), 100 * sizeof(int), cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  std::vector<int> out(2 * n, 0);
  CHECK(cudaMemcpy(out.data(), d, 2 * n * sizeof(int), cudaMemcpyDeviceToHost) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaMemset(d, 0, 2 * n * sizeof(int)) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);

  std::vector<int> now(n, 0);
  REQUIRE(cudaMemcpy(now.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(now == src);
  CHECK(cudaGetLastError() == cudaSuccess);
  cudaFree(d);
}

TEST_CASE("cudaGetLastError returns and resets the last error, cudaPeekAtLastError does not reset it") {
  CHECK(cudaGetLastError() == cudaSuccess);
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, 16) == cudaSuccess);
  REQUIRE(cudaFree(d) == cudaSuccess);
  REQUIRE(cudaFree(d) == cudaErrorInvalidValue);
  CHECK(cudaPeekAtLastError() == cudaErrorInvalidValue);
  CHECK(cudaPeekAtLastError() == cudaErrorInvalidValue);
  // A successful call in between does not clear it.
  REQUIRE(cudaMalloc(&d, 16) == cudaSuccess);
  CHECK(cudaPeekAtLastError() == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaPeekAtLastError() == cudaSuccess);
  cudaFree(d);
}

TEST_CASE("cudaGetErrorString and cudaGetErrorName") {
  CHECK(std::string(cudaGetErrorString(cudaSuccess)) == "no error");
  CHECK(std::string(cudaGetErrorName(cudaSuccess)) == "cudaSuccess");
  CHECK(std::string(cudaGetErrorString(cudaErrorInvalidValue)) == "invalid argument");
  CHECK(std::string(cudaGetErrorName(cudaErrorInvalidValue)) == "cudaErrorInvalidValue");
  CHECK(std::string(cudaGetErrorString(cudaErrorInvalidConfiguration)) == "invalid configuration argument");
  CHECK(std::string(cudaGetErrorName(cudaErrorInvalidConfiguration)) == "cudaErrorInvalidConfiguration");
  CHECK(std::string(cudaGetErrorString(cudaErrorIllegalAddress)) == "an illegal memory access was encountered");
  CHECK(std::string(cudaGetErrorName(cudaErrorIllegalAddress)) == "cudaErrorIllegalAddress");
  CHECK(std::string(cudaGetErrorString(cudaErrorLaunchFailure)) == "unspecified launch failure");
  CHECK(std::string(cudaGetErrorString(cudaErrorMemoryAllocation)) == "out of memory");
  CHECK(static_cast<int>(cudaErrorInvalidValue) == 1);
  CHECK(static_cast<int>(cudaErrorInvalidConfiguration) == 9);
  CHECK(static_cast<int>(cudaErrorIllegalAddress) == 700);
  CHECK(static_cast<int>(cudaErrorLaunchFailure) == 719);
}

TEST_CASE("cudaGetDeviceCount is 1 and cudaGetDeviceProperties is plausible for sm_90") {
  int count = 0;
  REQUIRE(cudaGetDeviceCount(&count) == cudaSuccess);
  CHECK(count == 1);
  int device = -1;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  CHECK(device == 0);
  CHECK(cudaSetDevice(0) == cudaSuccess);
  cudaDeviceProp p;
  REQUIRE(cudaGetDeviceProperties(&p, 0) == cudaSuccess);
  CHECK(p.warpSize == 32);
  CHECK(p.maxThreadsPerBlock == 1024);
  CHECK(p.major == 9);
  CHECK(p.sharedMemPerBlock == 49152);
  CHECK(p.maxThreadsDim[0] == 1024);
  CHECK(p.maxThreadsDim[1] == 1024);
  CHECK(p.maxThreadsDim[2] == 64);
  CHECK(p.maxGridSize[0] == 2147483647);
  CHECK(p.maxGridSize[1] == 65535);
  CHECK(p.maxGridSize[2] == 65535);
  CHECK(p.totalConstMem == 65536);
  CHECK(p.multiProcessorCount >= 1);
  CHECK(p.totalGlobalMem > (1ull << 30));
  CHECK(std::strlen(p.name) > 0);
  int attr = 0;
  REQUIRE(cudaDeviceGetAttribute(&attr, cudaDevAttrWarpSize, 0) == cudaSuccess);
  CHECK(attr == 32);
  REQUIRE(cudaDeviceGetAttribute(&attr, cudaDevAttrMaxSharedMemoryPerBlock, 0) == cudaSuccess);
  CHECK(attr == 49152);
}

TEST_CASE("peer access with one device: no other device to reach, a copy from device 0 to device 0 copies") {
  // As multi-GPU samples (simpleP2P, p2pBandwidthLatencyTest) probe before they go their own way.
  CHECK(cudaDeviceEnablePeerAccess(1, 0) == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
  CHECK(cudaDeviceDisablePeerAccess(1) == cudaErrorInvalidDevice);
  int value = -1;
  CHECK(cudaDeviceGetP2PAttribute(&value, cudaDevP2PAttrAccessSupported, 0, 1) == cudaErrorInvalidDevice);
  cudaGetLastError();
  const int n = 1000;
  const std::vector<int> h = pattern(n, 5);
  int *a = nullptr, *b = nullptr;
  REQUIRE(cudaMalloc(&a, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&b, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMemcpy(a, h.data(), n * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
  CHECK(cudaMemcpyPeer(b, 0, a, 0, n * sizeof(int)) == cudaSuccess);
  std::vector<int> back(n, 0);
  REQUIRE(cudaMemcpy(back.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back == h);
  REQUIRE(cudaMemset(b, 0, n * sizeof(int)) == cudaSuccess);
  CHECK(cudaMemcpyPeerAsync(b, 0, a, 0, n * sizeof(int), 0) == cudaSuccess);
  REQUIRE(cudaMemcpy(back.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back == h);
  CHECK(cudaMemcpyPeer(b, 1, a, 0, n * sizeof(int)) == cudaErrorInvalidDevice);
  cudaGetLastError();
  CHECK(std::string(cudaGetErrorName(cudaErrorPeerAccessNotEnabled)) == "cudaErrorPeerAccessNotEnabled");
  CHECK(static_cast<int>(cudaErrorPeerAccessAlreadyEnabled) == 704);
  cudaFree(a);
  cudaFree(b);
}

TEST_CASE("cudaFuncGetAttributes of a kernel, named or by address") {
  // As the CUDA samples check a kernel's block size limit before they launch it.
  cudaFuncAttributes a;
  REQUIRE(cudaFuncGetAttributes(&a, add_one) == cudaSuccess);
  CHECK(a.maxThreadsPerBlock == 1024);
  CHECK(a.binaryVersion == 90);
  CHECK(a.maxDynamicSharedSizeBytes == 49152);
  CHECK(a.sharedSizeBytes == 0);
  REQUIRE(cudaFuncGetAttributes(&a, (const void*)add_one) == cudaSuccess);
  CHECK(a.maxThreadsPerBlock == 1024);
  CHECK(cudaFuncGetAttributes(nullptr, add_one) == cudaErrorInvalidValue);
  cudaGetLastError();
}

TEST_CASE("events: elapsed time between two recorded events is >= 0, an unrecorded event is an error") {
  cudaEvent_t start, stop, never;
  REQUIRE(cudaEventCreate(&start) == cudaSuccess);
  REQUIRE(cudaEventCreate(&stop) == cudaSuccess);
  REQUIRE(cudaEventCreate(&never) == cudaSuccess);
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, 1024 * sizeof(int)) == cudaSuccess);
  cudaMemset(d, 0, 1024 * sizeof(int));
  REQUIRE(cudaEventRecord(start) == cudaSuccess);
  add_one<<<4, 256>>>(d, 1024);
  REQUIRE(cudaEventRecord(stop) == cudaSuccess);
  REQUIRE(cudaEventSynchronize(stop) == cudaSuccess);
  CHECK(cudaEventQuery(stop) == cudaSuccess);
  float ms = -1.0f;
  REQUIRE(cudaEventElapsedTime(&ms, start, stop) == cudaSuccess);
  CHECK(ms >= 0.0f);

  float unused = 0.0f;
  CHECK(cudaEventElapsedTime(&unused, start, never) == cudaErrorInvalidResourceHandle);
  CHECK(cudaGetLastError() == cudaErrorInvalidResourceHandle);
  CHECK(cudaGetLastError() == cudaSuccess);

  cudaEvent_t untimed;
  REQUIRE(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming) == cudaSuccess);
  REQUIRE(cudaEventRecord(untimed) == cudaSuccess);
  CHECK(cudaEventElapsedTime(&unused, start, untimed) == cudaErrorInvalidResourceHandle);
  CHECK(cudaGetLastError() == cudaErrorInvalidResourceHandle);

  CHECK(cudaEventDestroy(start) == cudaSuccess);
  CHECK(cudaEventDestroy(stop) == cudaSuccess);
  CHECK(cudaEventDestroy(never) == cudaSuccess);
  CHECK(cudaEventDestroy(untimed) == cudaSuccess);
  cudaFree(d);
}

TEST_CASE("streams: create (default and non-blocking), launch on them, synchronize, destroy") {
  const int n = 512;
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMemset(d, 0, n * sizeof(int)) == cudaSuccess);
  cudaStream_t plain, non_blocking;
  REQUIRE(cudaStreamCreate(&plain) == cudaSuccess);
  REQUIRE(cudaStreamCreateWithFlags(&non_blocking, cudaStreamNonBlocking) == cudaSuccess);
  add_one<<<2, 256, 0, plain>>>(d, n);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaStreamSynchronize(plain) == cudaSuccess);
  add_one<<<2, 256, 0, non_blocking>>>(d, n);
  add_one<<<2, 256, 0, non_blocking>>>(d, n);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaStreamSynchronize(non_blocking) == cudaSuccess);
  CHECK(cudaStreamQuery(non_blocking) == cudaSuccess);
  std::vector<int> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) REQUIRE(h[i] == 3);
  CHECK(cudaStreamDestroy(plain) == cudaSuccess);
  CHECK(cudaStreamDestroy(non_blocking) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cudaFree(d);
}
