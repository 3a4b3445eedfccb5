// Conformance: device math and printf. min/max on int, unsigned, mixed signed/
// unsigned (compared as unsigned, as CUDA's overloads do), long long and float;
// fminf, rsqrtf, __expf, __fmul_rn, __fdividef, __float2int_rn (round half to
// even) and _rz, __float_as_int/__int_as_float, __popc, __clz, __ffs, __brev,
// __ldg; the directed roundings of __fsqrt/__frcp/__fmaf and their double
// forms; printf in device code, captured from stdout after
// cudaDeviceSynchronize. Inputs come in as kernel arguments so that nothing
// is folded at compile time.
// Plain CUDA: it also builds with nvcc (with tests/catch_main.cpp), and every
// case passes on an H100 with CUDA 13.0 (driver 580).
#include <catch2/catch.hpp>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct MinMaxIn {
  int a, b;
  unsigned ua, ub;
  int neg;
  unsigned one;
  long long la, lb;
  float fa, fb;
};

struct MinMaxOut {
  int imin, imax;
  unsigned umin, umax;
  unsigned mixed_min, mixed_max;
  long long lmin, lmax;
  float fmin_, fmax_;
};

__global__ void min_max(MinMaxIn in, MinMaxOut* out) {
  out->imin = min(in.a, in.b);
  out->imax = max(in.a, in.b);
  out->umin = min(in.ua, in.ub);
  out->umax = max(in.ua, in.ub);
  out->mixed_min = min(in.neg, in.one);  // int and unsigned: compared as unsigned
  out->mixed_max = max(in.neg, in.one);
  out->lmin = min(in.la, in.lb);
  out->lmax = max(in.la, in.lb);
  out->fmin_ = min(in.fa, in.fb);
  out->fmax_ = max(in.fa, in.fb);
}

__global__ void float_intrinsics(const float* x, float* out) {
  out[0] = fminf(x[0], x[1]);           // fminf(1, NaN) = 1
  out[1] = fminf(x[1], x[0]);           // fminf(NaN, 1) = 1
  out[2] = rsqrtf(x[2]);                // 1/sqrt(4)
  out[3] = rsqrtf(x[3]);                // 1/sqrt(0.25)
  out[4] = __expf(x[0]);                // e
  out[5] = __fmul_rn(x[4], x[5]);       // 3 * 0.1f, rounded to nearest
  out[6] = __fdividef(x[0], x[4]);      // 1/3
  out[7] = __fdividef(x[6], x[7]);      // 10 / 4 = 2.5
  out[8] = __expf(x[8]);                // e^0 = 1
}

__global__ void conversions(const float* x, int* rn, int* rz, int n) {
  const int i = threadIdx.x;
  if (i < n) {
    rn[i] = __float2int_rn(x[i]);
    rz[i] = __float2int_rz(x[i]);
  }
}

__global__ void bit_casts(const float* f, const int* k, int* as_int, float* as_float, int n) {
  const int i = threadIdx.x;
  if (i < n) {
    as_int[i] = __float_as_int(f[i]);
    as_float[i] = __int_as_float(k[i]);
  }
}

__global__ void bit_ops(const unsigned* x, int* popc, int* clz, int* ffs, unsigned* brev, unsigned* ldg, int n) {
  const int i = threadIdx.x;
  if (i < n) {
    popc[i] = __popc(x[i]);
    clz[i] = __clz(static_cast<int>(x[i]));
    ffs[i] = __ffs(static_cast<int>(x[i]));
    brev[i] = __brev(x[i]);
    ldg[i] = __ldg(&x[i]);
  }
}

// The directed roundings of square roots, reciprocals and fused multiply-adds (interval arithmetic).
__global__ void directed_roundings(float two, float three, double dtwo, double dthree, float tiny, float* f,
                                   double* d) {
  f[0] = __fsqrt_rd(two);
  f[1] = __fsqrt_ru(two);
  f[2] = __fsqrt_rz(two);
  f[3] = __frcp_rd(three);
  f[4] = __frcp_ru(three);
  f[5] = __fmaf_rd(1.0f, 1.0f, tiny);
  f[6] = __fmaf_ru(1.0f, 1.0f, tiny);
  f[7] = __fmaf_rz(-1.0f, 1.0f, -tiny);
  d[0] = __dsqrt_rd(dtwo);
  d[1] = __dsqrt_ru(dtwo);
  d[2] = __drcp_rd(dthree);
  d[3] = __drcp_ru(dthree);
  d[4] = __dsqrt_rn(dtwo * dtwo);
  d[5] = __fma_ru(1.0, 1.0, static_cast<double>(tiny));
  d[6] = __fdiv_ru(1.0f, three);
  d[7] = __fdiv_rd(1.0f, three);
}

__global__ void say_hello(int base, float f, unsigned u, long long big) {
  printf("block %d thread %d: %d %.2f %s %u %x %lld\n", blockIdx.x, threadIdx.x, base + threadIdx.x, f * threadIdx.x,
         "ok", u, u, big);
}

template <typename T>
T* to_device(const std::vector<T>& h) {
  T* d = nullptr;
  cudaMalloc(&d, h.size() * sizeof(T));
  cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

template <typename T>
std::vector<T> to_host(const T* d, size_t n) {
  std::vector<T> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return h;
}

// Runs `f` with the process's stdout (fd 1) going to a temporary file; returns what was written.
template <typename F>
std::string capture_stdout(F f) {
  std::fflush(stdout);
  char path[] = "/tmp/gpulab_emu_printf_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) return "<mkstemp failed>";
  const int saved = dup(1);
  dup2(fd, 1);
  f();
  std::fflush(stdout);
  dup2(saved, 1);
  close(saved);
  close(fd);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  unlink(path);
  return text.str();
}

std::vector<std::string> sorted_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

}  // namespace

TEST_CASE("min and max on int, unsigned, mixed int/unsigned, long long and float") {
  MinMaxIn in{3, -7, 3u, 10u, -1, 1u, 5LL, -3000000000LL, 2.5f, -1.0f};
  MinMaxOut* d = nullptr;
  REQUIRE(cudaMalloc(&d, sizeof(MinMaxOut)) == cudaSuccess);
  min_max<<<1, 1>>>(in, d);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  const MinMaxOut r = to_host(d, 1)[0];
  CHECK(r.imin == -7);
  CHECK(r.imax == 3);
  CHECK(r.umin == 3u);
  CHECK(r.umax == 10u);
  CHECK(r.mixed_min == 1u);
  CHECK(r.mixed_max == 0xffffffffu);
  CHECK(r.lmin == -3000000000LL);
  CHECK(r.lmax == 5LL);
  CHECK(r.fmin_ == -1.0f);
  CHECK(r.fmax_ == 2.5f);
  cudaFree(d);
}

TEST_CASE("fminf, rsqrtf, __expf, __fmul_rn and __fdividef") {
  const std::vector<float> x = {1.0f, std::numeric_limits<float>::quiet_NaN(), 4.0f, 0.25f, 3.0f, 0.1f,
                                10.0f, 4.0f, 0.0f};
  float* dx = to_device(x);
  float* dout = nullptr;
  REQUIRE(cudaMalloc(&dout, 9 * sizeof(float)) == cudaSuccess);
  float_intrinsics<<<1, 1>>>(dx, dout);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  const std::vector<float> r = to_host(dout, 9);
  CHECK(r[0] == 1.0f);
  CHECK(r[1] == 1.0f);
  CHECK(r[2] == Approx(0.5f).epsilon(1e-6));
  CHECK(r[3] == Approx(2.0f).epsilon(1e-6));
  CHECK(r[4] == Approx(2.7182818f).epsilon(1e-5));
  volatile float three = 3.0f, tenth = 0.1f;
  CHECK(r[5] == three * tenth);  // one IEEE single multiplication
  CHECK(r[6] == Approx(1.0f / 3.0f).epsilon(1e-6));
  CHECK(r[7] == Approx(2.5f).epsilon(1e-6));
  CHECK(r[8] == Approx(1.0f).epsilon(1e-6));
  cudaFree(dx);
  cudaFree(dout);
}

TEST_CASE("__float2int_rn rounds half to even, __float2int_rz truncates") {
  const std::vector<float> x = {2.5f, 3.5f, -2.5f, -3.5f, 0.5f, 1.5f, 2.6f, 2.4f, -2.6f, 2.9f, -2.9f, 100000.5f};
  const std::vector<int> rn = {2, 4, -2, -4, 0, 2, 3, 2, -3, 3, -3, 100000};
  const std::vector<int> rz = {2, 3, -2, -3, 0, 1, 2, 2, -2, 2, -2, 100000};
  const int n = static_cast<int>(x.size());
  float* dx = to_device(x);
  int *drn = nullptr, *drz = nullptr;
  REQUIRE(cudaMalloc(&drn, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&drz, n * sizeof(int)) == cudaSuccess);
  conversions<<<1, 32>>>(dx, drn, drz, n);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  CHECK(to_host(drn, n) == rn);
  CHECK(to_host(drz, n) == rz);
  cudaFree(dx);
  cudaFree(drn);
  cudaFree(drz);
}

TEST_CASE("__fsqrt, __frcp, __fmaf and their double forms round down, up and toward zero as asked") {
  float* df = nullptr;
  double* dd = nullptr;
  REQUIRE(cudaMalloc(&df, 8 * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMalloc(&dd, 8 * sizeof(double)) == cudaSuccess);
  directed_roundings<<<1, 1>>>(2.0f, 3.0f, 2.0, 3.0, 1e-30f, df, dd);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  const std::vector<float> f = to_host(df, 8);
  const std::vector<double> d = to_host(dd, 8);
  CHECK(f[1] == std::nextafter(f[0], 2.0f));  // sqrt(2) is not a float: one ulp apart
  CHECK(f[0] < std::sqrt(2.0));
  CHECK(f[1] > std::sqrt(2.0));
  CHECK(f[2] == f[0]);  // positive: toward zero is down
  CHECK(f[4] == std::nextafter(f[3], 1.0f));
  CHECK(f[3] < 1.0 / 3.0);
  CHECK(f[5] == 1.0f);  // 1 + 1e-30 is not a float either
  CHECK(f[6] == std::nextafter(1.0f, 2.0f));
  CHECK(f[7] == -1.0f);  // toward zero from just below -1
  CHECK(d[1] == std::nextafter(d[0], 2.0));
  CHECK(d[3] == std::nextafter(d[2], 1.0));
  CHECK(d[4] == 2.0);
  CHECK(d[5] == std::nextafter(1.0, 2.0));
  CHECK(static_cast<float>(d[6]) == std::nextafter(static_cast<float>(d[7]), 1.0f));  // __fdiv_ru, _rd of 1/3
  cudaFree(df);
  cudaFree(dd);
}

TEST_CASE("__float_as_int and __int_as_float reinterpret the bits") {
  const std::vector<float> f = {1.0f, -0.0f, -2.0f, 0.1f};
  const std::vector<int> fi = {0x3f800000, static_cast<int>(0x80000000u), static_cast<int>(0xc0000000u), 0x3dcccccd};
  const std::vector<int> k = {0x40490fdb, 0x3f800000, 0x7f800000, static_cast<int>(0xbf000000u)};
  const int n = 4;
  float* df = to_device(f);
  int* dk = to_device(k);
  int* as_int = nullptr;
  float* as_float = nullptr;
  REQUIRE(cudaMalloc(&as_int, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&as_float, n * sizeof(float)) == cudaSuccess);
  bit_casts<<<1, 32>>>(df, dk, as_int, as_float, n);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  CHECK(to_host(as_int, n) == fi);
  const std::vector<float> r = to_host(as_float, n);
  CHECK(r[0] == 3.14159274f);
  CHECK(r[1] == 1.0f);
  CHECK(r[2] == std::numeric_limits<float>::infinity());
  CHECK(r[3] == -0.5f);
  cudaFree(df);
  cudaFree(dk);
  cudaFree(as_int);
  cudaFree(as_float);
}

TEST_CASE("__popc, __clz, __ffs, __brev and __ldg") {
  const std::vector<unsigned> x = {0u, 1u, 0xffffffffu, 0xf0f0f0f0u, 0x100u, 0x80000000u, 0x00010000u, 0x12345678u};
  const std::vector<int> popc = {0, 1, 32, 16, 1, 1, 1, 13};
  const std::vector<int> clz = {32, 31, 0, 0, 23, 0, 15, 3};
  const std::vector<int> ffs = {0, 1, 1, 5, 9, 32, 17, 4};
  const std::vector<unsigned> brev = {0u, 0x80000000u, 0xffffffffu, 0x0f0f0f0fu, 0x00800000u, 1u, 0x00008000u,
                                      0x1e6a2c48u};
  const int n = static_cast<int>(x.size());
  unsigned* dx = to_device(x);
  int *dp = nullptr, *dc = nullptr, *df = nullptr;
  unsigned *db = nullptr, *dl = nullptr;
  REQUIRE(cudaMalloc(&dp, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&dc, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&df, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&db, n * sizeof(unsigned)) == cudaSuccess);
  REQUIRE(cudaMalloc(&dl, n * sizeof(unsigned)) == cudaSuccess);
  bit_ops<<<1, 32>>>(dx, dp, dc, df, db, dl, n);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  CHECK(to_host(dp, n) == popc);
  CHECK(to_host(dc, n) == clz);
  CHECK(to_host(df, n) == ffs);
  CHECK(to_host(db, n) == brev);
  CHECK(to_host(dl, n) == x);
  cudaFree(dx);
  cudaFree(dp);
  cudaFree(dc);
  cudaFree(df);
  cudaFree(db);
  cudaFree(dl);
}

TEST_CASE("printf in device code: the text of every thread reaches stdout by cudaDeviceSynchronize") {
  cudaError_t sync = cudaErrorUnknown;
  const std::string text = capture_stdout([&sync] {
    say_hello<<<2, 3>>>(40, 0.5f, 3054u, -1234567890123LL);
    sync = cudaDeviceSynchronize();
  });
  CHECK(sync == cudaSuccess);
  std::vector<std::string> expected;
  for (int b = 0; b < 2; ++b)
    for (int t = 0; t < 3; ++t) {
      char line[128];
      std::snprintf(line, sizeof line, "block %d thread %d: %d %.2f ok 3054 bee -1234567890123", b, t, 40 + t,
                    0.5f * t);
      expected.push_back(line);
    }
  std::sort(expected.begin(), expected.end());
  INFO("captured:\n" << text);
  CHECK(sorted_lines(text) == expected);

  // Host printf still works and is not captured any more.
  const std::string host = capture_stdout([] { printf("host %d\n", 7); });
  CHECK(host == "host 7\n");
}
