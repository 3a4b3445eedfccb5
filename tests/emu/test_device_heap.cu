// Conformance: cudaDeviceSetLimit/cudaDeviceGetLimit and malloc/free in kernels.
// The device heap is cudaLimitMallocHeapSize bytes (8 MiB by default); malloc
// returns NULL once it is exhausted, and memory freed in one kernel can be
// allocated again in the next. Host code keeps the C library's malloc.
// A GPU fixes the heap's size once a kernel has allocated from it, so every case that sets the
// limit starts with cudaDeviceReset (which also restores the defaults): the cases hold in any order.
// Plain CUDA: it also builds with nvcc, and every case holds on an H100 with CUDA 13.0.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <cstring>

namespace {
// Each thread allocates `bytes`, fills it, sums it back and records whether it got memory.
__global__ void allocate_and_use(int bytes, int* got, long long* sums, int keep) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned char* p = static_cast<unsigned char*>(malloc(bytes));
  got[t] = p != nullptr;
  if (!p) return;
  long long sum = 0;
  for (int i = 0; i < bytes; ++i) p[i] = static_cast<unsigned char>(i + t);
  for (int i = 0; i < bytes; ++i) sum += p[i];
  sums[t] = sum;
  if (!keep) free(p);
}

__global__ void allocate_one(size_t bytes, int* got) {
  void* p = malloc(bytes);
  *got = p != nullptr;
  free(p);
}

int count_got(const int* d, int n) {
  int* h = static_cast<int*>(std::malloc(n * sizeof(int)));
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  int c = 0;
  for (int i = 0; i < n; ++i) c += h[i];
  std::free(h);
  return c;
}
}  // namespace

TEST_CASE("cudaDeviceGetLimit reports CUDA's defaults and cudaDeviceSetLimit changes them") {
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  size_t value = 0;
  REQUIRE(cudaDeviceGetLimit(&value, cudaLimitMallocHeapSize) == cudaSuccess);
  CHECK(value == 8 * 1024 * 1024);
  REQUIRE(cudaDeviceGetLimit(&value, cudaLimitPrintfFifoSize) == cudaSuccess);
  CHECK(value == 8650752);  // as an H200 reports it (CUDA 13.0, driver 580)
  REQUIRE(cudaDeviceGetLimit(&value, cudaLimitStackSize) == cudaSuccess);
  CHECK(value == 1024);
  REQUIRE(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32 * 1024 * 1024) == cudaSuccess);
  REQUIRE(cudaDeviceGetLimit(&value, cudaLimitMallocHeapSize) == cudaSuccess);
  CHECK(value == 32 * 1024 * 1024);
  REQUIRE(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 4 * 1024 * 1024) == cudaSuccess);
  REQUIRE(cudaDeviceGetLimit(&value, cudaLimitPrintfFifoSize) == cudaSuccess);
  CHECK(value == 4 * 1024 * 1024);
}

TEST_CASE("malloc and free in a kernel: every thread gets memory it can use") {
  const int threads = 256;
  int* got = nullptr;
  long long* sums = nullptr;
  REQUIRE(cudaMalloc(&got, threads * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&sums, threads * sizeof(long long)) == cudaSuccess);
  allocate_and_use<<<2, threads / 2>>>(100, got, sums, 0);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(count_got(got, threads) == threads);
  long long h[threads];
  REQUIRE(cudaMemcpy(h, sums, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int t = 0; t < threads; ++t) {
    long long expected = 0;
    for (int i = 0; i < 100; ++i) expected += static_cast<unsigned char>(i + t);
    REQUIRE(h[t] == expected);
  }
  cudaFree(got);
  cudaFree(sums);
}

TEST_CASE("a heap set below 4 MiB is 4 MiB, as an H200 reports it") {
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  REQUIRE(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20) == cudaSuccess);
  size_t value = 0;
  REQUIRE(cudaDeviceGetLimit(&value, cudaLimitMallocHeapSize) == cudaSuccess);
  CHECK(value == (size_t(4) << 20));
}

TEST_CASE("malloc in a kernel returns NULL for more than the heap, and once the heap is used up") {
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  REQUIRE(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 4 << 20) == cudaSuccess);  // before any kernel allocates
  int* got = nullptr;
  REQUIRE(cudaMalloc(&got, 64 * sizeof(int)) == cudaSuccess);
  allocate_one<<<1, 1>>>(size_t(8) << 20, got);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(count_got(got, 1) == 0);

  // 64 threads keep 256 KiB each: at most 16 fit in 4 MiB (fewer where the allocator has overhead).
  long long* sums = nullptr;
  REQUIRE(cudaMalloc(&sums, 64 * sizeof(long long)) == cudaSuccess);
  allocate_and_use<<<1, 64>>>(256 * 1024, got, sums, 1);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const int kept = count_got(got, 64);
  CHECK(kept >= 1);
  CHECK(kept <= 16);
  CHECK(kept < 64);
  cudaFree(got);
  cudaFree(sums);
}

TEST_CASE("memory freed by one kernel is available to the next") {
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  REQUIRE(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 4 << 20) == cudaSuccess);
  int* got = nullptr;
  REQUIRE(cudaMalloc(&got, sizeof(int)) == cudaSuccess);
  for (int round = 0; round < 4; ++round) {
    allocate_one<<<1, 1>>>(2 << 20, got);  // half the heap, freed at the end of each kernel
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(count_got(got, 1) == 1);
  }
  cudaFree(got);
}

TEST_CASE("the heap's size is fixed once a kernel has allocated from it, until cudaDeviceReset") {
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  REQUIRE(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16 << 20) == cudaSuccess);  // nothing allocated yet
  int* got = nullptr;
  REQUIRE(cudaMalloc(&got, sizeof(int)) == cudaSuccess);
  allocate_one<<<1, 1>>>(1024, got);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  CHECK(count_got(got, 1) == 1);
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32 << 20) == cudaErrorInvalidValue);
  cudaGetLastError();
  size_t value = 0;
  REQUIRE(cudaDeviceGetLimit(&value, cudaLimitMallocHeapSize) == cudaSuccess);
  CHECK(value == (size_t(16) << 20));  // unchanged
  cudaFree(got);
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  REQUIRE(cudaDeviceGetLimit(&value, cudaLimitMallocHeapSize) == cudaSuccess);
  CHECK(value == (size_t(8) << 20));  // the default again
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32 << 20) == cudaSuccess);
}

TEST_CASE("host code's malloc and free are the C library's, beyond the device heap's size") {
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  REQUIRE(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20) == cudaSuccess);
  char* p = static_cast<char*>(malloc(4 << 20));
  REQUIRE(p != nullptr);
  std::memset(p, 1, 4 << 20);
  free(p);
}
