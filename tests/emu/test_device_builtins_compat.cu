// Conformance: device functions sample code calls that are not in test_math.cu:
// umin/umax and the 64-bit min/max forms, and clock()/clock64() in a kernel
// (non-decreasing within a thread, while host code still gets the C library's
// clock()).
// Plain CUDA: it also builds with nvcc, and every case holds on an H100 with CUDA 13.0.
#include <catch2/catch.hpp>

#include <ctime>

namespace {
__global__ void minmax(unsigned* out, unsigned a, unsigned b, long long c, long long d) {
  out[0] = umin(a, b);
  out[1] = umax(a, b);
  out[2] = static_cast<unsigned>(llmin(c, d) + 100);
  out[3] = static_cast<unsigned>(llmax(c, d));
  out[4] = static_cast<unsigned>(ullmax(5ull, 7ull));
  out[5] = min(a, b);  // unsigned overload: 0xffffffff is the larger
}

__global__ void timed(long long* out, int* ordered) {
  const clock_t start = clock();
  const long long start64 = clock64();
  volatile float x = 1.0f;
  for (int i = 0; i < 20000; ++i) x = x * 1.000001f + 0.5f;
  const clock_t end = clock();
  const long long end64 = clock64();
  out[threadIdx.x] = end64 - start64;
  ordered[threadIdx.x] = end >= start && end64 > start64;
}
}  // namespace

TEST_CASE("umin, umax, llmin, llmax and ullmax in a kernel") {
  unsigned* d = nullptr;
  REQUIRE(cudaMalloc(&d, 6 * sizeof(unsigned)) == cudaSuccess);
  minmax<<<1, 1>>>(d, 0xffffffffu, 3u, -5, 9);
  unsigned h[6] = {};
  REQUIRE(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(h[0] == 3u);
  CHECK(h[1] == 0xffffffffu);
  CHECK(h[2] == 95u);
  CHECK(h[3] == 9u);
  CHECK(h[4] == 7u);
  CHECK(h[5] == 3u);
  cudaFree(d);
}

TEST_CASE("clock() and clock64() in a kernel move forward over a loop") {
  long long* cycles = nullptr;
  int* ordered = nullptr;
  REQUIRE(cudaMalloc(&cycles, 32 * sizeof(long long)) == cudaSuccess);
  REQUIRE(cudaMalloc(&ordered, 32 * sizeof(int)) == cudaSuccess);
  timed<<<1, 32>>>(cycles, ordered);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  long long hc[32];
  int ho[32];
  REQUIRE(cudaMemcpy(hc, cycles, sizeof hc, cudaMemcpyDeviceToHost) == cudaSuccess);
  REQUIRE(cudaMemcpy(ho, ordered, sizeof ho, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int t = 0; t < 32; ++t) {
    CHECK(hc[t] > 0);
    CHECK(ho[t] == 1);
  }
  cudaFree(cycles);
  cudaFree(ordered);
}

TEST_CASE("clock() in host code is the C library's processor time") {
  const clock_t start = clock();
  volatile double x = 0;
  while (clock() - start < CLOCKS_PER_SEC / 100) x = x + 1;  // 10 ms of processor time
  CHECK(std::clock() - start >= CLOCKS_PER_SEC / 100);
}
