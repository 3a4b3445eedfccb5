// Conformance: cuRAND's device API (curand_kernel.h) for XORWOW (curandState) and Philox4_32_10,
// in kernels as course programs use it: the same seed, subsequence and offset give the same
// numbers in every thread; an offset is that many numbers skipped; subsequences compose; Philox's
// first numbers are Philox4x32-10's published test vector; uniforms lie in (0, 1] and uniforms
// and normals have the right mean and spread. Whether each number equals a GPU's is recorded by
// tests/gpu/probe_curand.cu. Plain CUDA: it also builds with nvcc (with tests/catch_main.cpp).
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include <curand_kernel.h>

namespace {

template <class State>
__global__ void draw(unsigned long long seed, unsigned long long subsequence, unsigned long long offset, int count,
                     unsigned int* out) {
  State s;
  curand_init(seed, subsequence, offset, &s);
  for (int i = 0; i < count; ++i) out[threadIdx.x * count + i] = curand(&s);
}

// Thread t: a state on subsequence t, then `count` uniforms and `count` normals.
template <class State>
__global__ void distributions(unsigned long long seed, int count, float* uniforms, float* normals) {
  State s;
  curand_init(seed, threadIdx.x, 0, &s);
  for (int i = 0; i < count; ++i) uniforms[threadIdx.x * count + i] = curand_uniform(&s);
  for (int i = 0; i < count; ++i) normals[threadIdx.x * count + i] = curand_normal(&s);
}

// skipahead and skipahead_sequence on a state, against numbers drawn one by one.
template <class State>
__global__ void skips(unsigned long long seed, unsigned int* out) {
  State a, b;
  curand_init(seed, 0, 0, &a);
  for (int i = 0; i < 1000; ++i) curand(&a);
  curand_init(seed, 0, 0, &b);
  skipahead(1000ull, &b);
  out[0] = curand(&a);
  out[1] = curand(&b);
  curand_init(seed, 3, 0, &a);
  curand_init(seed, 1, 0, &b);
  skipahead_sequence(2ull, &b);
  out[2] = curand(&a);
  out[3] = curand(&b);
}

template <class State>
std::vector<unsigned int> drawn(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                                int threads, int count) {
  unsigned int* d = nullptr;
  cudaMalloc(&d, threads * count * sizeof(unsigned int));
  draw<State><<<1, threads>>>(seed, subsequence, offset, count, d);
  std::vector<unsigned int> h(threads * count);
  cudaMemcpy(h.data(), d, h.size() * sizeof(unsigned int), cudaMemcpyDeviceToHost);
  cudaFree(d);
  return h;
}

template <class State>
void check_generator() {
  // Every thread with the same seed, subsequence and offset draws the same numbers.
  const std::vector<unsigned int> same = drawn<State>(1234, 5, 0, 32, 8);
  for (int t = 1; t < 32; ++t) {
    for (int i = 0; i < 8; ++i) REQUIRE(same[t * 8 + i] == same[i]);
  }
  // An offset of k is the sequence from its k-th number; another subsequence or seed differs.
  const std::vector<unsigned int> from0 = drawn<State>(1234, 5, 0, 1, 20);
  const std::vector<unsigned int> from7 = drawn<State>(1234, 5, 7, 1, 13);
  for (int i = 0; i < 13; ++i) CHECK(from7[i] == from0[i + 7]);
  CHECK(drawn<State>(1234, 6, 0, 1, 8) != std::vector<unsigned int>(from0.begin(), from0.begin() + 8));
  CHECK(drawn<State>(1235, 5, 0, 1, 8) != std::vector<unsigned int>(from0.begin(), from0.begin() + 8));

  unsigned int* d = nullptr;
  cudaMalloc(&d, 4 * sizeof(unsigned int));
  skips<State><<<1, 1>>>(99, d);
  unsigned int h[4];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  CHECK(h[0] == h[1]);  // skipahead(1000) is 1000 numbers drawn
  CHECK(h[2] == h[3]);  // subsequence 1 skipped ahead by 2 subsequences is subsequence 3

  // Uniforms in (0, 1], mean 1/2, variance 1/12; normals mean 0, variance 1.
  const int threads = 256, count = 400, n = threads * count;
  float *du = nullptr, *dn = nullptr;
  cudaMalloc(&du, n * sizeof(float));
  cudaMalloc(&dn, n * sizeof(float));
  distributions<State><<<1, threads>>>(2026, count, du, dn);
  std::vector<float> u(n), z(n);
  cudaMemcpy(u.data(), du, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(z.data(), dn, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(du);
  cudaFree(dn);
  double su = 0, su2 = 0, sz = 0, sz2 = 0;
  for (int i = 0; i < n; ++i) {
    REQUIRE(u[i] > 0.0f);
    REQUIRE(u[i] <= 1.0f);
    REQUIRE(std::isfinite(z[i]));
    su += u[i];
    su2 += double(u[i]) * u[i];
    sz += z[i];
    sz2 += double(z[i]) * z[i];
  }
  CHECK(std::fabs(su / n - 0.5) < 0.005);
  CHECK(std::fabs(su2 / n - su / n * su / n - 1.0 / 12) < 0.003);
  CHECK(std::fabs(sz / n) < 0.01);
  CHECK(std::fabs(sz2 / n - 1.0) < 0.02);
}

}  // namespace

TEST_CASE("curand XORWOW (curandState): seeds, subsequences, offsets and skips, uniform and normal numbers") {
  check_generator<curandState>();
}

TEST_CASE("curand Philox4_32_10: seeds, subsequences, offsets and skips, uniform and normal numbers") {
  check_generator<curandStatePhilox4_32_10_t>();
  // Seed 0, subsequence 0: the first four numbers are Philox4x32-10 of a zero counter and key, the
  // published test vector (Random123's kat_vectors).
  const std::vector<unsigned int> first = drawn<curandStatePhilox4_32_10_t>(0, 0, 0, 1, 4);
  CHECK(first == std::vector<unsigned int>{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u});
}
