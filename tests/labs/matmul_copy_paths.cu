// The matmul reference's three ways of bringing b into shared memory, each checked against a
// product computed here in double precision: 16-byte copies of b's rows (n a multiple of 4,
// aligned), 16-byte copies of a padded copy of b (any other n, or b not 16-byte aligned), and
// b's elements one by one (the fallback when the device has no room for the padded copy, which
// grading never reaches by itself). Each path with each tile shape the reference uses, at sizes
// with partial tiles at every edge, then matmul() itself at k = 0. A whole program, run by
// `gpulab run` (the reference's kernels are rewritten with it) or built with nvcc (it passes on an
// H200 too); it prints one line per check and "matmul copy paths: N checks, M failed", and exits
// 1 if any failed.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "../../reference/matmul/matmul.cu"

namespace {

int checks = 0, failed = 0;

struct Product {
  int m, n, k;
  std::vector<float> a, b;
  Product(int m_, int n_, int k_) : m(m_), n(n_), k(k_), a(size_t(m_) * k_), b(size_t(k_) * n_) {
    for (size_t i = 0; i < a.size(); ++i) a[i] = float((i * 7919) % 17) / 8.0f - 1.0f;
    for (size_t i = 0; i < b.size(); ++i) b[i] = float((i * 104729) % 13) / 6.0f - 1.0f;
  }
};

// Runs `launch` on device copies of the product's inputs (b `shift` floats past a 16-byte
// boundary when shift is not 0) and compares c with the product, naming the first wrong element.
template <class Launch>
void check_path(const Product& pr, int shift, const char* shape, const char* path, Launch launch) {
  float *a = nullptr, *b = nullptr, *c = nullptr;
  cudaMalloc(&a, pr.a.size() * sizeof(float));
  cudaMalloc(&b, (pr.b.size() + shift) * sizeof(float));
  cudaMalloc(&c, size_t(pr.m) * pr.n * sizeof(float));
  cudaMemcpy(a, pr.a.data(), pr.a.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(b + shift, pr.b.data(), pr.b.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(c, 0xFF, size_t(pr.m) * pr.n * sizeof(float));  // NaN: an unwritten element fails
  launch(a, b + shift, c);
  const cudaError_t err = cudaDeviceSynchronize();
  std::vector<float> got(size_t(pr.m) * pr.n);
  cudaMemcpy(got.data(), c, got.size() * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(a), cudaFree(b), cudaFree(c);
  int wrong = 0;
  std::string first;
  for (int r = 0; r < pr.m; ++r)
    for (int col = 0; col < pr.n; ++col) {
      double want = 0;
      for (int p = 0; p < pr.k; ++p) want += double(pr.a[size_t(r) * pr.k + p]) * pr.b[size_t(p) * pr.n + col];
      const double v = got[size_t(r) * pr.n + col];
      if (!(std::fabs(v - want) <= 1e-4 * (1.0 + std::fabs(want))) && !wrong++)
        first = ", first c[" + std::to_string(r) + "][" + std::to_string(col) + "] = " + std::to_string(v) +
                ", expected " + std::to_string(want);
    }
  ++checks;
  if (wrong || err != cudaSuccess) ++failed;
  std::printf("%s, %s, %dx%dx%d: %s, %d wrong%s\n", shape, path, pr.m, pr.n, pr.k, cudaGetErrorString(err), wrong,
              first.c_str());
}

template <class C> void every_path(const char* shape, int m, int n, int k) {
  const Product pr(m, n, k);
  // As matmul() calls it: 16-byte copies of b (n a multiple of 4), or of its padded copy.
  check_path(pr, 0, shape, n % 4 == 0 ? "16-byte copies of b" : "padded copy of b",
             [&](const float* a, const float* b, float* c) { launch_any<C>(a, b, c, pr.m, pr.n, pr.k); });
  // b one float past a 16-byte boundary: the padded copy whatever n.
  check_path(pr, 1, shape, "padded copy of an unaligned b",
             [&](const float* a, const float* b, float* c) { launch_any<C>(a, b, c, pr.m, pr.n, pr.k); });
  // The fallback: b and c element by element.
  check_path(pr, 1, shape, "b element by element", [&](const float* a, const float* b, float* c) {
    launch_tiled<C, false>(a, b, pr.n, c, pr.m, pr.n, pr.k, false);
  });
}

}  // namespace

int main() {
  every_path<SmallTiles>("64 x 64 tiles", 67, 45, 37);
  every_path<SmallTiles>("64 x 64 tiles", 70, 72, 33);
  every_path<Tiles>("128 x 128 tiles", 131, 133, 21);
  every_path<Wide>("128 x 256 tiles", 130, 260, 18);
  const Product small(9, 7, 5);
  check_path(small, 0, "matmul()", "n = 7",
             [&](const float* a, const float* b, float* c) { matmul(a, b, c, small.m, small.n, small.k); });
  const Product empty(9, 7, 0);  // k = 0: c all zeros, nothing read
  check_path(empty, 0, "matmul()", "k = 0",
             [&](const float* a, const float* b, float* c) { matmul(a, b, c, empty.m, empty.n, empty.k); });
  std::printf("matmul copy paths: %d checks, %d failed\n", checks, failed);
  return failed ? 1 : 0;
}
