// Conformance: cuda_fp16.h. Conversions round to nearest even (ties, the
// largest finite half, overflow to infinity, subnormals, NaN), arithmetic and
// comparisons on __half and __half2 in a kernel give the correctly rounded
// half results a GPU gives, and the math functions work.
// Plain CUDA: it also builds with nvcc, and every case holds on an H100 with CUDA 13.0.
#include <catch2/catch.hpp>
#include <cuda_fp16.h>

namespace {
__global__ void convert(const float* in, unsigned short* out, float* back, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const __half h = __float2half(in[i]);
    out[i] = __half_as_ushort(h);
    back[i] = __half2float(h);
  }
}

__global__ void arithmetic(const __half* a, const __half* b, __half* out) {
  out[0] = __hadd(a[0], b[0]);
  out[1] = __hsub(a[0], b[0]);
  out[2] = __hmul(a[0], b[0]);
  out[3] = __hdiv(a[0], b[0]);
  out[4] = __hfma(a[0], b[0], a[1]);
  out[5] = a[0] + b[0] * a[1];
  out[6] = -a[0];
  out[7] = __hmax(a[0], b[0]);
  out[8] = hsqrt(b[0]);
  out[9] = __habs(__hneg(a[1]));
}

__global__ void compare(const __half* a, const __half* b, int* out) {
  out[0] = __hlt(a[0], b[0]);
  out[1] = a[0] < b[0];
  out[2] = a[0] == a[0];
  out[3] = __heq(a[0], b[0]);
  out[4] = a[0] >= b[0];
  out[5] = __hisnan(__hdiv(__float2half(0.0f), __float2half(0.0f)));
  out[6] = __hisinf(__hmul(__float2half(60000.0f), __float2half(2.0f)));
}

__global__ void pairs(const __half2* a, const __half2* b, float2* out) {
  const __half2 s = __hadd2(a[0], b[0]);
  const __half2 p = __hmul2(a[0], b[0]);
  const __half2 f = __hfma2(a[0], b[0], s);
  out[0] = __half22float2(s);
  out[1] = __half22float2(p);
  out[2] = __half22float2(f);
  out[3] = make_float2(__low2float(a[0] + b[0]), __high2float(__floats2half2_rn(1.5f, -2.25f)));
}
}  // namespace

TEST_CASE("__float2half rounds to nearest even: ties, limits, subnormals, infinity, NaN") {
  const float in[] = {1.0f,
                      1.0f + 1.0f / 2048,          // halfway between 1 and 1+2^-10: ties to even (1)
                      1.0f + 3.0f / 2048,          // halfway between 1+2^-10 and 1+2^-9: ties to even
                      1.0f + 1.0f / 2048 + 1e-6f,  // just above halfway: rounds up
                      65504.0f,                    // the largest finite half
                      65519.0f,                    // rounds down to 65504
                      65520.0f,                    // rounds to infinity
                      5.9604645e-08f,              // 2^-24, the smallest subnormal
                      2.9802322e-08f,              // 2^-25: ties to even (0)
                      4.0e-08f,                    // above 2^-25: the smallest subnormal
                      -0.0f,
                      1e10f,
                      -1e10f,
                      0.1f,
                      3.14159265f};
  const unsigned short expected[] = {0x3c00, 0x3c00, 0x3c02, 0x3c01, 0x7bff, 0x7bff, 0x7c00, 0x0001,
                                     0x0000, 0x0001, 0x8000, 0x7c00, 0xfc00, 0x2e66, 0x4248};
  const int n = sizeof in / sizeof in[0];
  float *d_in = nullptr, *d_back = nullptr;
  unsigned short* d_out = nullptr;
  REQUIRE(cudaMalloc(&d_in, sizeof in) == cudaSuccess);
  REQUIRE(cudaMalloc(&d_back, sizeof in) == cudaSuccess);
  REQUIRE(cudaMalloc(&d_out, n * sizeof(unsigned short)) == cudaSuccess);
  REQUIRE(cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice) == cudaSuccess);
  convert<<<1, 32>>>(d_in, d_out, d_back, n);
  unsigned short out[n];
  float back[n];
  REQUIRE(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost) == cudaSuccess);
  REQUIRE(cudaMemcpy(back, d_back, sizeof back, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < n; ++i) {
    INFO("input " << in[i]);
    CHECK(out[i] == expected[i]);
  }
  CHECK(back[4] == 65504.0f);
  CHECK(back[7] == 5.9604645e-08f);
  CHECK(back[13] == 0.0999755859375f);
  cudaFree(d_in);
  cudaFree(d_back);
  cudaFree(d_out);
}

TEST_CASE("__half arithmetic rounds each result to the nearest half") {
  const __half ha[2] = {__float2half(1.5f), __float2half(0.333251953125f)};  // 0.3333 is 0x3555
  const __half hb[1] = {__float2half(3.0f)};
  __half *a = nullptr, *b = nullptr, *out = nullptr;
  REQUIRE(cudaMalloc(&a, sizeof ha) == cudaSuccess);
  REQUIRE(cudaMalloc(&b, sizeof hb) == cudaSuccess);
  REQUIRE(cudaMalloc(&out, 10 * sizeof(__half)) == cudaSuccess);
  REQUIRE(cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice) == cudaSuccess);
  REQUIRE(cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice) == cudaSuccess);
  arithmetic<<<1, 1>>>(a, b, out);
  __half h[10];
  REQUIRE(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(__half2float(h[0]) == 4.5f);
  CHECK(__half2float(h[1]) == -1.5f);
  CHECK(__half2float(h[2]) == 4.5f);
  CHECK(__half2float(h[3]) == 0.5f);
  // fma rounds once: 4.5 + 0.333251953125 = 4.833251953125 -> 4.83203125 (0x44d5).
  CHECK(__half_as_ushort(h[4]) == 0x44d5);
  // b * a[1] = 1 - 2^-12, halfway between 0x3bff and 1.0, rounds to even (1.0); then 1.5 + 1.0 = 2.5.
  CHECK(__half_as_ushort(h[5]) == 0x4100);
  CHECK(__half2float(h[6]) == -1.5f);
  CHECK(__half2float(h[7]) == 3.0f);
  CHECK(__half2float(h[8]) == __half2float(__float2half(1.7320508f)));
  CHECK(__half2float(h[9]) == 0.333251953125f);
  cudaFree(a);
  cudaFree(b);
  cudaFree(out);
}

TEST_CASE("__half comparisons, NaN and overflow to infinity") {
  const __half ha[1] = {__float2half(-2.0f)};
  const __half hb[1] = {__float2half(0.5f)};
  __half *a = nullptr, *b = nullptr;
  int* out = nullptr;
  REQUIRE(cudaMalloc(&a, sizeof ha) == cudaSuccess);
  REQUIRE(cudaMalloc(&b, sizeof hb) == cudaSuccess);
  REQUIRE(cudaMalloc(&out, 7 * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice) == cudaSuccess);
  REQUIRE(cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice) == cudaSuccess);
  compare<<<1, 1>>>(a, b, out);
  int h[7];
  REQUIRE(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(h[0] == 1);
  CHECK(h[1] == 1);
  CHECK(h[2] == 1);
  CHECK(h[3] == 0);
  CHECK(h[4] == 0);
  CHECK(h[5] == 1);
  CHECK(h[6] == 1);
  cudaFree(a);
  cudaFree(b);
  cudaFree(out);
}

TEST_CASE("__half2 lanes are added, multiplied and fused independently") {
  const __half2 ha[1] = {__floats2half2_rn(1.25f, -3.0f)};
  const __half2 hb[1] = {__floats2half2_rn(2.0f, 0.5f)};
  __half2 *a = nullptr, *b = nullptr;
  float2* out = nullptr;
  REQUIRE(cudaMalloc(&a, sizeof ha) == cudaSuccess);
  REQUIRE(cudaMalloc(&b, sizeof hb) == cudaSuccess);
  REQUIRE(cudaMalloc(&out, 4 * sizeof(float2)) == cudaSuccess);
  REQUIRE(cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice) == cudaSuccess);
  REQUIRE(cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice) == cudaSuccess);
  pairs<<<1, 1>>>(a, b, out);
  float2 h[4];
  REQUIRE(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(h[0].x == 3.25f);
  CHECK(h[0].y == -2.5f);
  CHECK(h[1].x == 2.5f);
  CHECK(h[1].y == -1.5f);
  CHECK(h[2].x == 5.75f);
  CHECK(h[2].y == -4.0f);
  CHECK(h[3].x == 3.25f);
  CHECK(h[3].y == -2.25f);
  cudaFree(a);
  cudaFree(b);
  cudaFree(out);
}
