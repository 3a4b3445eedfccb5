// Regions whose loop over a row of the block's threads stops early (grader/rewriter/region_loops.cpp):
// a round `if (v < u) ...` whose value v grows with the thread's x index stops at the first thread
// for which it is false. Rows of a 2-D block each start at their own rank (slots and fault reports
// name the right thread), a Brent-Kung scan's index grows with the thread, and a value that is
// negative for the first threads, compared with an unsigned bound, does not stop the loop there.
// CTest runs this file twice: as built (regions) and with GPULAB_EMU_REGIONS=0 (fibers).
#include <catch2/catch.hpp>

#include <vector>

#include "gpulab/emu/diagnostics_api.hpp"
#include "region_test_helpers.cuh"

namespace {

using region_test::DeviceArray;
using region_test::launched_as_asked;

constexpr int kBlock = 128;

// Each row of a 2-D block (16 x 4) sums its values: a round's loop over a row stops at the row's
// first thread with nothing to do (threadIdx.x < stride), and the next row's threads must still be
// themselves: `rounds` is each thread's own, kept in its slot.
__global__ void row_rounds(const int* in, int* out) {
  __shared__ int s[4][16];
  const int x = threadIdx.x, y = threadIdx.y;
  int rounds = 0;
  s[y][x] = in[(blockIdx.x * 4 + y) * 16 + x];
  for (unsigned stride = 8; stride > 0; stride >>= 1) {
    __syncthreads();
    if (threadIdx.x < stride) {
      s[threadIdx.y][threadIdx.x] += s[threadIdx.y][threadIdx.x + stride];
      ++rounds;
    }
  }
  __syncthreads();
  out[(blockIdx.x * 4 + y) * 16 + x] = s[y][0] * 100 + rounds;
}

// A Brent-Kung scan of 2 x 128 values per block: a round's loop stops at the first thread whose
// index is past the section. Then a test whose value is negative for the first threads (compared
// with an unsigned bound, those are large values): the loop goes on past them.
__global__ void brent_kung(const int* in, int* out, int* window) {
  __shared__ int xy[2 * kBlock];
  const int t = threadIdx.x;
  const int base = 2 * blockIdx.x * kBlock;
  xy[t] = in[base + t];
  xy[t + kBlock] = in[base + t + kBlock];
  for (int stride = 1; stride <= kBlock; stride *= 2) {
    __syncthreads();
    const int index = (t + 1) * 2 * stride - 1;
    if (index < 2 * kBlock) xy[index] += xy[index - stride];
  }
  for (int stride = kBlock / 2; stride > 0; stride /= 2) {
    __syncthreads();
    const int index = (t + 1) * 2 * stride - 1;
    if (index + stride < 2 * kBlock) xy[index + stride] += xy[index];
  }
  __syncthreads();
  out[base + t] = xy[t];
  out[base + t + kBlock] = xy[t + kBlock];
  __syncthreads();
  if (t - 40 < 10u) window[blockIdx.x * kBlock + t] = xy[t];
}

// A fault in such a round, in thread (3,2) of a 16 x 4 block.
__global__ void fault_in_row_round(int* out, int* bad) {
  __shared__ int s[4][16];
  s[threadIdx.y][threadIdx.x] = 1;
  for (unsigned stride = 8; stride > 0; stride >>= 1) {
    __syncthreads();
    if (threadIdx.x < stride) s[threadIdx.y][threadIdx.x] += (threadIdx.y == 2 && threadIdx.x == 3 ? bad : out)[0];
  }
}

}  // namespace

TEST_CASE("regions: rounds whose loop over a row stops early, in a 2-D block") {
  std::vector<int> in(2 * 64);
  for (int i = 0; i < 128; ++i) in[i] = i % 13 - 3;
  DeviceArray<int> d_in(in), out(128);
  launched_as_asked([&] { row_rounds<<<2, dim3(16, 4)>>>(d_in.p, out.p); });
  const std::vector<int> h = out.host();
  for (int row = 0; row < 8; ++row) {
    int sum = 0;
    for (int x = 0; x < 16; ++x) sum += in[row * 16 + x];
    for (int x = 0; x < 16; ++x) {
      const int rounds = (x < 8) + (x < 4) + (x < 2) + (x < 1);
      CHECK(h[row * 16 + x] == sum * 100 + rounds);
    }
  }
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  gpulab::emu::take_diagnostics();
  int* d_out = nullptr;
  REQUIRE(cudaMalloc(&d_out, sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMemset(d_out, 0, sizeof(int)) == cudaSuccess);
  fault_in_row_round<<<1, dim3(16, 4)>>>(d_out, nullptr);
  CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
  const std::vector<gpulab::emu::Diagnostic> all = gpulab::emu::take_diagnostics();
  REQUIRE(all.size() == 1);
  CHECK(all[0].threads == "(3,2,0)");
  REQUIRE(cudaDeviceReset() == cudaSuccess);
}

TEST_CASE("regions: a Brent-Kung scan's rounds stop early, a test of a value that grows from below zero does not") {
  const int blocks = 3;
  std::vector<int> in(blocks * 2 * kBlock);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i % 11) - 3;
  DeviceArray<int> d_in(in), out(in.size()), window(blocks * kBlock);
  launched_as_asked([&] { brent_kung<<<blocks, kBlock>>>(d_in.p, out.p, window.p); });
  const std::vector<int> h = out.host(), w = window.host();
  for (int b = 0; b < blocks; ++b) {
    int prefix = 0;
    for (int i = 0; i < 2 * kBlock; ++i) {
      prefix += in[b * 2 * kBlock + i];
      CHECK(h[b * 2 * kBlock + i] == prefix);
    }
    for (int t = 0; t < kBlock; ++t) CHECK(w[b * kBlock + t] == (t >= 40 && t < 50 ? h[b * 2 * kBlock + t] : 0));
  }
}

