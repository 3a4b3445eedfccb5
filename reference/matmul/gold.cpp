// CPU gold for the matmul lab: c (m x n) = a (m x k) * b (k x n), row-major.
// Computes the expected output in double precision and, for the float_bound
// check, the per-element error scale  k * sum_p |a[i][p] * b[p][j]|.
//
// Why this scale, and the factor in assignments/matmul/lab.json:
//   A float dot product of length k, summed in ANY order (one thread walking p
//   from 0 to k-1 as the basic kernel does, tile by tile as the tiled kernels
//   do, several partial sums later added together, with or without fused
//   multiply-add) has an error of at most gamma_k * sum_p |a_ip * b_pj|, where
//   gamma_k = k*u / (1 - k*u) and u = 2^-24 (each product and each addition
//   rounds once, and no partial sum exceeds sum_p |a_ip * b_pj| in magnitude).
//   The expected value is this double-precision sum rounded to float, which
//   adds at most u * sum_p |a_ip b_pj|. The products of two floats are exact
//   in double and the double sum's own error (~k * 2^-53 * scale) is negligible.
//   So every correct strategy stays within (k/(1-k*u) + 1) * u * sum|a b|,
//   that is at most 2 * 2^-24 * scale for every k >= 1 used here (k*u < 1e-4).
//   The lab uses factor 4: twice that proven worst case, so no correct
//   summation order can fail, while a real bug still fails by orders of
//   magnitude: one lost product term of typical size is about scale / k^2,
//   i.e. 1/(4 * k^2 * 2^-24) ~ 5000x the bound at k = 29 and ~10x at k = 640;
//   a wrong index or a lost tile changes the value by O(sum|a b|), far above
//   4 * k * 2^-24 * sum|a b| (< 2e-4 * sum|a b| for k <= 640).
//   Elements whose products are all zero have scale 0: they must be exactly 0,
//   which every correct kernel produces.
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "gold/gold_registry.hpp"

namespace {

void matmul_tiled(const gpulab::gold::Case& cs, gpulab::gold::Expected& out) {
  const long long m = cs.size("m");
  const long long n = cs.size("n");
  const long long k = cs.size("k");
  const auto a = cs.input("a").as<float>();
  const auto b = cs.input("b").as<float>();
  if (m < 1 || n < 1 || k < 1) throw std::runtime_error("matmul gold: m, n and k must be at least 1");
  if (static_cast<long long>(a.size()) != m * k || static_cast<long long>(b.size()) != k * n) {
    throw std::runtime_error("matmul gold: a must hold m*k and b k*n elements (m=" + std::to_string(m) +
                             ", n=" + std::to_string(n) + ", k=" + std::to_string(k) + ")");
  }

  std::vector<float> c(static_cast<size_t>(m * n));
  std::vector<double> scale(static_cast<size_t>(m * n));
  std::vector<double> sum(static_cast<size_t>(n));
  std::vector<double> abs_sum(static_cast<size_t>(n));
  for (long long i = 0; i < m; ++i) {
    // Row i of c, accumulated over p in the cache-friendly i-p-j order.
    std::fill(sum.begin(), sum.end(), 0.0);
    std::fill(abs_sum.begin(), abs_sum.end(), 0.0);
    for (long long p = 0; p < k; ++p) {
      const double aip = a[i * k + p];
      const float* brow = b.data() + p * n;
      for (long long j = 0; j < n; ++j) {
        const double prod = aip * static_cast<double>(brow[j]);  // exact: 24 x 24 bits < 53
        sum[j] += prod;
        abs_sum[j] += std::fabs(prod);
      }
    }
    for (long long j = 0; j < n; ++j) {
      c[i * n + j] = static_cast<float>(sum[j]);
      scale[i * n + j] = static_cast<double>(k) * abs_sum[j];
    }
  }
  const std::vector<size_t> shape{static_cast<size_t>(m), static_cast<size_t>(n)};
  out.set("c", gpulab::NdArray::from(c, shape));
  out.set_scale("c", gpulab::NdArray::from(scale, shape));
}

}  // namespace

GPULAB_GOLD("matmul", "tiled", matmul_tiled);
