// Warp collectives in the region form (grader/rewriter/region_warps.cpp, grader/emu/src/
// region_warps.cpp): shuffles of every kind (idx, up, down, xor; widths 32, 16 and 8; int, float,
// double and unsigned long long), votes and __syncwarp, at the kernel's top level and in uniform
// loops. CTest runs this file twice, its blocks as regions between barriers (the default) and one
// fiber per thread (GPULAB_EMU_REGIONS=0): each kernel's output is checked against values worked
// out here from the programming guide, so both ways give the same output, and each launch is
// checked to have taken the way asked for. A mask that leaves out lanes gives the same report both
// ways; a block whose last warp is partial keeps its fibers.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "diagnostics_after.cuh"
#include "gpulab/emu/diagnostics_api.hpp"
#include "region_test_helpers.cuh"

using gpulab::emu::Diagnostic;
using region_test::DeviceArray;
using region_test::launched_as_asked;

namespace {

constexpr unsigned kFull = 0xffffffffu;
constexpr int kThreads = 128, kBlocks = 2;

template <class T> struct Value;
template <> struct Value<int> {
  __host__ __device__ static int of(int t) { return t * 7 - 100; }
};
template <> struct Value<float> {
  __host__ __device__ static float of(int t) { return t * 0.25f - 3.0f; }
};
template <> struct Value<double> {
  __host__ __device__ static double of(int t) { return t * 0.125 - 1e10; }
};
template <> struct Value<unsigned long long> {
  __host__ __device__ static unsigned long long of(int t) { return (1ull << 40) * t + 7; }
};

// Every shuffle, in each statement shape the region form takes; the lane of __shfl_sync and the
// delta of __shfl_down_sync differ between the threads (each receiving thread reads its own).
template <class T, int W>
__global__ void shuffles(T* out, int src, unsigned delta, int lane_mask) {
  const int t = threadIdx.x;
  const int n = blockDim.x;
  const T v = Value<T>::of(static_cast<int>(blockIdx.x) * n + t);
  __syncthreads();
  T a = __shfl_sync(kFull, v, src + t, W);
  T b;
  b = __shfl_up_sync(kFull, v, delta, W);
  const T c = __shfl_down_sync(kFull, v, delta + (t & 1), W);
  T d = v;
  d += __shfl_xor_sync(kFull, v, lane_mask, W);
  T* o = out + (blockIdx.x * n + t) * 5;
  o[0] = a;
  o[1] = b;
  o[2] = c;
  o[3] = d;
  for (int round = 0; round < 3; ++round) a = __shfl_sync(kFull, a, t + 1, W);  // a uniform loop
  o[4] = a;
}

// Source lanes as the programming guide defines them.
int src_idx(int lane, int s, int w) { return lane / w * w + ((s % w) + w) % w; }
int src_up(int lane, int d, int w) { return lane % w >= d ? lane - d : lane; }
int src_down(int lane, int d, int w) { return lane % w + d < w ? lane + d : lane; }
int src_xor(int lane, int m, int w) { return (lane ^ m) / w > lane / w ? lane : (lane ^ m); }

template <class T, int W> void check_shuffles(int src, unsigned delta, int lane_mask) {
  DeviceArray<T> out(kBlocks * kThreads * 5);
  launched_as_asked([&] { shuffles<T, W><<<kBlocks, kThreads>>>(out.p, src, delta, lane_mask); });
  const std::vector<T> h = out.host();
  int wrong = 0;
  for (int g = 0; g < kBlocks * kThreads; ++g) {
    const int lane = g % 32, warp = g - lane;
    auto at = [&](int l) { return Value<T>::of(warp + l); };
    T a = at(src_idx(lane, src + g % kThreads, W));
    const T expected[4] = {a, at(src_up(lane, static_cast<int>(delta), W)),
                           at(src_down(lane, static_cast<int>(delta) + (g & 1), W)),
                           static_cast<T>(at(lane) + at(src_xor(lane, lane_mask, W)))};
    for (int k = 0; k < 4; ++k) wrong += h[g * 5 + k] != expected[k];
    // Three rounds of "take the next lane's a", within the width's segment.
    std::vector<T> row(32);
    for (int l = 0; l < 32; ++l) row[l] = at(src_idx(l, src + (warp + l) % kThreads, W));
    for (int round = 0; round < 3; ++round) {
      std::vector<T> next(32);
      for (int l = 0; l < 32; ++l) next[l] = row[src_idx(l, (warp + l) % kThreads + 1, W)];
      row = next;
    }
    wrong += h[g * 5 + 4] != row[lane];
  }
  CHECK(wrong == 0);
}

// A warp sum in a uniform loop, votes, and __syncwarp ordering a warp's shared memory.
__global__ void sums_and_votes(const int* in, int* sums, unsigned* votes) {
  __shared__ int stage[kThreads];
  const int t = threadIdx.x;
  const int g = blockIdx.x * blockDim.x + t;
  int v = in[g];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(kFull, v, offset);
  if (t % 32 == 0) sums[g / 32] = v;
  const unsigned b = __ballot_sync(kFull, in[g] % 3 == 0);
  int any = __any_sync(kFull, in[g] == 40);
  int all = 0;
  all = __all_sync(kFull, in[g] >= 0);
  stage[t] = in[g] * 2;
  __syncwarp();
  const int neighbour = stage[t ^ 1];
  int flags = 0;
  int r = 0;
  while (r < 3) {  // a uniform while loop around a vote used as an if's condition
    if (__any_sync(kFull, (t >> (r + 3)) & 1)) flags |= 1 << r;
    ++r;
  }
  unsigned* o = votes + g * 5;
  o[0] = b;
  o[1] = static_cast<unsigned>(any);
  o[2] = static_cast<unsigned>(all);
  o[3] = static_cast<unsigned>(neighbour);
  o[4] = static_cast<unsigned>(flags);
}

__global__ void outside_mask(int* out, int source) {
  int v = threadIdx.x;
  __syncthreads();
  v = __shfl_sync(0x0000ffffu, v, source);
  out[threadIdx.x] = v;
}

__global__ void bad_width(int* out) {
  int v = threadIdx.x;
  v = __shfl_xor_sync(kFull, v, 1, 12);
  out[threadIdx.x] = v;
}

__global__ void partial_down(int* out) {
  int v = threadIdx.x;
  v += __shfl_down_sync(kFull, v, 1);
  out[threadIdx.x] = v;
}

void fresh_device() {
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  gpulab::emu::take_diagnostics();
}

Diagnostic single_diagnostic() {
  const std::vector<Diagnostic> all = gpulab::emu::take_diagnostics();
  for (const Diagnostic& d : all) UNSCOPED_INFO("diagnostic [" << d.kind << "]: " << d.message);
  REQUIRE(all.size() == 1);
  return all[0];
}


// Runs a launch that must fail with one warp misuse; returns it. `as_regions`: whether the region
// form took the block (by default) or the block kept its fibers whatever the environment asks.
template <class F> Diagnostic misuse(F launch, bool as_regions) {
  fresh_device();
  int* out = nullptr;
  REQUIRE(cudaMalloc(&out, 64 * sizeof(int)) == cudaSuccess);
  const unsigned long long before = gpulab::emu::region_blocks_run();
  launch(out);
  CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
  CHECK((gpulab::emu::region_blocks_run() > before) == (as_regions && region_test::regions_on()));
  const Diagnostic d = single_diagnostic();
  CHECK(d.kind == "warp-misuse");
  fresh_device();
  return d;
}

}  // namespace

TEST_CASE("warp shuffles of every kind and width give the same values as regions and as fibers",
          "[regions][warp]") {
  check_shuffles<int, 32>(5, 3, 1);
  check_shuffles<int, 16>(37, 5, 8);
  check_shuffles<int, 8>(-3, 2, 4);
  check_shuffles<float, 32>(0, 31, 31);
  check_shuffles<float, 16>(15, 15, 20);
  check_shuffles<float, 8>(7, 7, 8);
  check_shuffles<double, 32>(31, 1, 16);
  check_shuffles<double, 16>(2, 4, 3);
  check_shuffles<double, 8>(1, 1, 24);
  check_shuffles<unsigned long long, 32>(12, 9, 7);
  check_shuffles<unsigned long long, 16>(9, 2, 5);
  check_shuffles<unsigned long long, 8>(3, 6, 2);
}

TEST_CASE("warp sums, votes and __syncwarp in uniform code give the same values both ways", "[regions][warp]") {
  std::vector<int> in(kBlocks * kThreads);
  for (int i = 0; i < static_cast<int>(in.size()); ++i) in[i] = (i * 37) % 101 - (i == 200 ? 500 : 0);
  DeviceArray<int> d_in(in), sums(in.size() / 32);
  DeviceArray<unsigned> votes(in.size() * 5);
  launched_as_asked([&] { sums_and_votes<<<kBlocks, kThreads>>>(d_in.p, sums.p, votes.p); });
  const std::vector<int> hs = sums.host();
  const std::vector<unsigned> hv = votes.host();
  int wrong = 0;
  for (int w = 0; w < static_cast<int>(in.size()) / 32; ++w) {
    int sum = 0;
    unsigned ballot = 0;
    bool any = false, all = true;
    for (int l = 0; l < 32; ++l) {
      const int x = in[w * 32 + l];
      sum += x;
      ballot |= (x % 3 == 0 ? 1u : 0u) << l;
      any = any || x == 40;
      all = all && x >= 0;
    }
    wrong += hs[w] != sum;
    for (int l = 0; l < 32; ++l) {
      const int g = w * 32 + l, t = g % kThreads;
      const unsigned* o = &hv[static_cast<size_t>(g) * 5];
      unsigned flags = 0;
      for (int r = 0; r < 3; ++r) {
        bool bit = false;
        for (int k = 0; k < 32; ++k) bit = bit || (((w * 32 + k) % kThreads >> (r + 3)) & 1);
        flags |= (bit ? 1u : 0u) << r;
      }
      wrong += o[0] != ballot || o[1] != (any ? 1u : 0u) || o[2] != (all ? 1u : 0u) ||
               o[3] != static_cast<unsigned>(in[g ^ 1] * 2) || o[4] != flags;
      (void)t;
    }
  }
  CHECK(wrong == 0);
}

TEST_CASE("a warp collective's mask or width mistake is reported alike as regions and as fibers",
          "[regions][warp]") {
  // Lanes 0-15 complete the shuffle, and lane 0 reads lane 20, outside the mask, before lane 16
  // arrives (on a GPU its value is undefined).
  Diagnostic d = misuse([](int* out) { outside_mask<<<1, 64>>>(out, 20); }, true);
  CHECK(has(d.message, "__shfl_sync on line"));
  CHECK(has(d.message, "thread (0,0,0): lane 0 reads lane 20, which is not in the mask 0x0000ffff"));
  // Lane 16 is not in the mask it passes.
  d = misuse([](int* out) { outside_mask<<<1, 64>>>(out, 3); }, true);
  CHECK(has(d.message, "thread (16,0,0): the mask 0x0000ffff does not include the calling lane 16"));
  d = misuse([](int* out) { bad_width<<<1, 64>>>(out); }, true);
  CHECK(has(d.message, "__shfl_xor_sync on line"));
  CHECK(has(d.message, "thread (0,0,0): width 12 must be a power of two between 1 and 32"));
  // A block of 48 threads: its second warp has 16 lanes, and lane 15 reads lane 16, which does not
  // exist. The block keeps its fibers, which say so.
  d = misuse([](int* out) { partial_down<<<1, 48>>>(out); }, false);
  CHECK(has(d.message, "thread (47,0,0): lane 15 reads lane 16"));
}
