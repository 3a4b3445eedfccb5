// Conformance: warp-level primitives. __shfl_sync, __shfl_up_sync,
// __shfl_down_sync and __shfl_xor_sync on int, unsigned, float, double and
// long long with widths 32, 16 and 8, every lane checked against the CUDA
// programming guide's definition (and PTX shfl.sync's segment rules);
// __ballot_sync, __any_sync, __all_sync and __activemask in full warps; two
// half-warps running different collectives with their own masks in divergent
// branches; warp-shuffle reductions of 1..1000; blocks of 48 and 40 threads
// whose last warp is partial, using a mask of the lanes that exist.
// Plain CUDA: it also builds with nvcc (with tests/catch_main.cpp), and every
// case passes on an H100 with CUDA 13.0 (driver 580).
#include <catch2/catch.hpp>
#include <vector>

namespace {

constexpr unsigned kFull = 0xffffffffu;

template <typename T>
struct Lane;
template <>
struct Lane<int> {
  __host__ __device__ static int value(int t) { return t * 3 - 40; }
};
template <>
struct Lane<unsigned> {
  __host__ __device__ static unsigned value(int t) { return 0x80000000u + static_cast<unsigned>(t) * 0x01010101u; }
};
template <>
struct Lane<float> {
  __host__ __device__ static float value(int t) { return t * 0.5f - 3.25f; }
};
template <>
struct Lane<double> {
  __host__ __device__ static double value(int t) { return t * 1.0e10 + 0.125; }
};
template <>
struct Lane<long long> {
  __host__ __device__ static long long value(int t) { return (1LL << 40) * t - 5; }
};

template <typename T>
__global__ void all_shuffles(T* out, int src, unsigned delta, int lane_mask, int width) {
  const int t = threadIdx.x;
  const int n = blockDim.x;
  const T v = Lane<T>::value(t);
  out[0 * n + t] = __shfl_sync(kFull, v, src, width);
  out[1 * n + t] = __shfl_up_sync(kFull, v, delta, width);
  out[2 * n + t] = __shfl_down_sync(kFull, v, delta, width);
  out[3 * n + t] = __shfl_xor_sync(kFull, v, lane_mask, width);
}

// Source lanes as the programming guide defines them (lane = id within the warp).
int ref_idx(int lane, int src, int width) { return lane / width * width + src % width; }
int ref_up(int lane, int delta, int width) { return lane % width >= delta ? lane - delta : lane; }
int ref_down(int lane, int delta, int width) { return lane % width + delta < width ? lane + delta : lane; }
int ref_xor(int lane, int lane_mask, int width) {
  const int s = lane ^ lane_mask;
  return s / width > lane / width ? lane : s;  // earlier groups may be read, later ones give the own value
}

struct ShuffleCase {
  int width, src, delta, lane_mask;
};
const ShuffleCase kShuffleCases[] = {
    {32, 5, 3, 1},  {32, 37, 1, 16}, {32, 0, 31, 31}, {16, 37, 3, 8}, {16, 2, 5, 16},
    {16, 15, 15, 20}, {8, 13, 2, 4},  {8, 7, 7, 8},    {8, 1, 1, 24},
};

__global__ void votes(unsigned* out) {
  const int t = threadIdx.x;
  const int lane = t % 32;
  unsigned* o = out + t * 8;
  o[0] = __ballot_sync(kFull, lane % 3 == 0);
  o[1] = __ballot_sync(kFull, t >= 40);
  o[2] = __any_sync(kFull, lane == 17);
  o[3] = __any_sync(kFull, 0);
  o[4] = __all_sync(kFull, lane < 32);
  o[5] = __all_sync(kFull, lane != 5);
  o[6] = __activemask();
  o[7] = __all_sync(kFull, t >= 32);
}

// The two halves of each warp take different branches and synchronise separately.
__global__ void half_warps(int* out) {
  const int t = threadIdx.x;
  const int lane = t % 32;
  const int v = t * 10;
  int* o = out + t * 5;
  if (lane < 16) {
    const unsigned m = 0x0000ffffu;
    o[0] = __shfl_down_sync(m, v, 1, 16);
    o[1] = static_cast<int>(__ballot_sync(m, lane & 1));
    o[2] = __all_sync(m, lane < 16);
    int s = v;
    for (int off = 8; off > 0; off /= 2) s += __shfl_xor_sync(m, s, off, 16);
    o[3] = s;
    __syncwarp(m);
    o[4] = __shfl_sync(m, v, 3, 16);
  } else {
    const unsigned m = 0xffff0000u;
    o[0] = __shfl_up_sync(m, v, 2, 16);
    o[1] = static_cast<int>(__ballot_sync(m, lane % 4 == 0));
    o[2] = __any_sync(m, lane == 31);
    int s = v;
    for (int off = 8; off > 0; off /= 2) s += __shfl_xor_sync(m, s, off, 16);
    o[3] = s;
    __syncwarp(m);
    o[4] = __shfl_sync(m, v, 3, 16);
  }
}

__global__ void warp_reductions(int* sum, float* fsum, int* warp_totals, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? i + 1 : 0;
  float f = static_cast<float>(v);
  int all = v;
  for (int off = 16; off > 0; off /= 2) {
    v += __shfl_down_sync(kFull, v, off);
    f += __shfl_down_sync(kFull, f, off);
    all += __shfl_xor_sync(kFull, all, off);  // butterfly: every lane gets the total
  }
  warp_totals[i] = all;
  if (threadIdx.x % 32 == 0) {
    atomicAdd(sum, v);
    atomicAdd(fsum, f);
  }
}

// The last warp of the block is partial: collectives name only the lanes that exist.
__global__ void partial_warp(unsigned* out) {
  const int t = threadIdx.x;
  const int lane = t % 32;
  const int warp = t / 32;
  const int existing = min(32, static_cast<int>(blockDim.x) - warp * 32);
  const unsigned mask = existing == 32 ? kFull : (1u << existing) - 1u;
  unsigned* o = out + (blockIdx.x * blockDim.x + t) * 6;
  o[0] = __activemask();
  o[1] = __ballot_sync(mask, 1);
  o[2] = __ballot_sync(mask, lane % 2);
  int s = t + 1;
  for (int off = existing / 2; off > 0; off /= 2) s += __shfl_xor_sync(mask, s, off);
  o[3] = static_cast<unsigned>(s);
  o[4] = static_cast<unsigned>(__shfl_sync(mask, t * 3, existing - 1));
  o[5] = static_cast<unsigned>(__all_sync(mask, t < static_cast<int>(blockDim.x)));
}

}  // namespace

TEMPLATE_TEST_CASE("shuffles of every kind and width match the programming guide on every lane", "", int,
                   unsigned, float, double, long long) {
  const int threads = 64;
  TestType* d = nullptr;
  REQUIRE(cudaMalloc(&d, 4 * threads * sizeof(TestType)) == cudaSuccess);
  for (const ShuffleCase& c : kShuffleCases) {
    all_shuffles<TestType><<<1, threads>>>(d, c.src, static_cast<unsigned>(c.delta), c.lane_mask, c.width);
    REQUIRE(cudaGetLastError() == cudaSuccess);
    std::vector<TestType> h(4 * threads);
    REQUIRE(cudaMemcpy(h.data(), d, h.size() * sizeof(TestType), cudaMemcpyDeviceToHost) == cudaSuccess);
    int wrong = 0;
    for (int t = 0; t < threads; ++t) {
      const int base = t / 32 * 32, lane = t % 32;
      const int src[4] = {ref_idx(lane, c.src, c.width), ref_up(lane, c.delta, c.width),
                          ref_down(lane, c.delta, c.width), ref_xor(lane, c.lane_mask, c.width)};
      for (int k = 0; k < 4; ++k) {
        if (!(h[k * threads + t] == Lane<TestType>::value(base + src[k]))) {
          ++wrong;
          UNSCOPED_INFO("op " << k << " (idx, up, down, xor) thread " << t << ": got " << h[k * threads + t]
                              << ", expected the value of lane " << src[k]);
        }
      }
    }
    INFO("width " << c.width << ", src " << c.src << ", delta " << c.delta << ", lane mask " << c.lane_mask);
    CHECK(wrong == 0);
  }
  cudaFree(d);
}

TEST_CASE("__ballot_sync, __any_sync, __all_sync and __activemask in full warps") {
  unsigned* d = nullptr;
  REQUIRE(cudaMalloc(&d, 64 * 8 * sizeof(unsigned)) == cudaSuccess);
  votes<<<1, 64>>>(d);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  std::vector<unsigned> h(64 * 8);
  cudaMemcpy(h.data(), d, h.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
  unsigned every_third = 0;
  for (int l = 0; l < 32; l += 3) every_third |= 1u << l;
  CHECK(every_third == 0x49249249u);
  int wrong = 0;
  for (int t = 0; t < 64; ++t) {
    const unsigned* o = &h[t * 8];
    const bool second = t >= 32;
    wrong += o[0] != every_third;
    wrong += o[1] != (second ? 0xffffff00u : 0u);
    wrong += o[2] != 1u;
    wrong += o[3] != 0u;
    wrong += o[4] != 1u;
    wrong += o[5] != 0u;
    wrong += o[6] != 0xffffffffu;
    wrong += o[7] != (second ? 1u : 0u);
  }
  CHECK(wrong == 0);
  cudaFree(d);
}

TEST_CASE("two half-warps run collectives with their own masks (0x0000ffff / 0xffff0000) in divergent branches") {
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, 64 * 5 * sizeof(int)) == cudaSuccess);
  half_warps<<<1, 64>>>(d);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  std::vector<int> h(64 * 5);
  cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int t = 0; t < 64; ++t) {
    const int lane = t % 32, wb = t / 32 * 32;
    const int* o = &h[t * 5];
    int half_sum = 0;
    if (lane < 16) {
      for (int l = 0; l < 16; ++l) half_sum += (wb + l) * 10;
      wrong += o[0] != (lane + 1 < 16 ? (t + 1) * 10 : t * 10);
      wrong += o[1] != 0x0000aaaa;
      wrong += o[2] != 1;
      wrong += o[3] != half_sum;
      wrong += o[4] != (wb + 3) * 10;
    } else {
      for (int l = 16; l < 32; ++l) half_sum += (wb + l) * 10;
      wrong += o[0] != (lane - 2 >= 16 ? (t - 2) * 10 : t * 10);
      wrong += o[1] != 0x11110000;
      wrong += o[2] != 1;
      wrong += o[3] != half_sum;
      wrong += o[4] != (wb + 19) * 10;
    }
  }
  CHECK(wrong == 0);
  cudaFree(d);
}

TEST_CASE("warp-shuffle reductions of 1..1000 are exact") {
  const int n = 1000, threads = 256, blocks = 4;
  int *sum = nullptr, *totals = nullptr;
  float* fsum = nullptr;
  REQUIRE(cudaMalloc(&sum, sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&fsum, sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMalloc(&totals, blocks * threads * sizeof(int)) == cudaSuccess);
  cudaMemset(sum, 0, sizeof(int));
  cudaMemset(fsum, 0, sizeof(float));
  warp_reductions<<<blocks, threads>>>(sum, fsum, totals, n);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  int s = 0;
  float f = 0;
  std::vector<int> h(blocks * threads);
  cudaMemcpy(&s, sum, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&f, fsum, sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(h.data(), totals, h.size() * sizeof(int), cudaMemcpyDeviceToHost);
  CHECK(s == 500500);
  CHECK(f == 500500.0f);
  int wrong = 0;
  for (int i = 0; i < blocks * threads; ++i) {
    int expected = 0;
    for (int j = i / 32 * 32; j < i / 32 * 32 + 32; ++j) expected += j < n ? j + 1 : 0;
    wrong += h[i] != expected;
  }
  CHECK(wrong == 0);
  cudaFree(sum);
  cudaFree(fsum);
  cudaFree(totals);
}

TEST_CASE("blocks of 48 and 40 threads: collectives over a mask of the lanes that exist") {
  for (int threads : {48, 40}) {
    const int blocks = 3;
    unsigned* d = nullptr;
    REQUIRE(cudaMalloc(&d, blocks * threads * 6 * sizeof(unsigned)) == cudaSuccess);
    partial_warp<<<blocks, threads>>>(d);
    REQUIRE(cudaGetLastError() == cudaSuccess);
    std::vector<unsigned> h(blocks * threads * 6);
    cudaMemcpy(h.data(), d, h.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
    const int tail = threads - 32;
    const unsigned tail_mask = (1u << tail) - 1u;
    int wrong = 0;
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < threads; ++t) {
        const unsigned* o = &h[(b * threads + t) * 6];
        const bool last = t >= 32;
        const unsigned mask = last ? tail_mask : 0xffffffffu;
        unsigned sum = 0;
        for (int j = (last ? 32 : 0); j < (last ? threads : 32); ++j) sum += j + 1;
        wrong += o[0] != mask;
        wrong += o[1] != mask;
        wrong += o[2] != (mask & 0xaaaaaaaau);
        wrong += o[3] != sum;
        wrong += o[4] != static_cast<unsigned>((last ? threads - 1 : 31) * 3);
        wrong += o[5] != 1u;
      }
    INFO("threads per block " << threads);
    CHECK(wrong == 0);
    cudaFree(d);
  }
}

// The warp reductions of sm_80 and later: every lane of the mask gets the reduction over the mask.
__global__ void warp_reductions(unsigned* out, int* signed_out, unsigned mask) {
  const int t = threadIdx.x;
  if (!(mask >> (t % 32) & 1u)) return;
  const unsigned u = 0x10000u * static_cast<unsigned>(t) + 7u * static_cast<unsigned>(t * t);
  const int s = 40 - 3 * t;
  out[6 * t + 0] = __reduce_add_sync(mask, u);
  out[6 * t + 1] = __reduce_min_sync(mask, u);
  out[6 * t + 2] = __reduce_max_sync(mask, u);
  out[6 * t + 3] = __reduce_and_sync(mask, u | 0x1u);
  out[6 * t + 4] = __reduce_or_sync(mask, u);
  out[6 * t + 5] = __reduce_xor_sync(mask, u);
  signed_out[3 * t + 0] = __reduce_add_sync(mask, s);
  signed_out[3 * t + 1] = __reduce_min_sync(mask, s);
  signed_out[3 * t + 2] = __reduce_max_sync(mask, s);
}

TEST_CASE("__reduce_add/min/max/and/or/xor_sync over a full warp and over half of one") {
  for (const unsigned mask : {kFull, 0x0000ffffu, 0xaaaaaaaau}) {
    unsigned* out;
    int* signed_out;
    REQUIRE(cudaMallocManaged(&out, 6 * 32 * sizeof(unsigned)) == cudaSuccess);
    REQUIRE(cudaMallocManaged(&signed_out, 3 * 32 * sizeof(int)) == cudaSuccess);
    warp_reductions<<<1, 32>>>(out, signed_out, mask);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    unsigned add = 0, mn = ~0u, mx = 0, band = ~0u, bor = 0, bxor = 0;
    int sadd = 0, smin = 1 << 30, smax = -(1 << 30);
    for (int t = 0; t < 32; ++t) {
      if (!(mask >> t & 1u)) continue;
      const unsigned u = 0x10000u * static_cast<unsigned>(t) + 7u * static_cast<unsigned>(t * t);
      const int s = 40 - 3 * t;
      add += u, mn = u < mn ? u : mn, mx = u > mx ? u : mx, band &= u | 0x1u, bor |= u, bxor ^= u;
      sadd += s, smin = s < smin ? s : smin, smax = s > smax ? s : smax;
    }
    for (int t = 0; t < 32; ++t) {
      if (!(mask >> t & 1u)) continue;
      INFO("mask " << mask << ", lane " << t);
      CHECK(out[6 * t + 0] == add);
      CHECK(out[6 * t + 1] == mn);
      CHECK(out[6 * t + 2] == mx);
      CHECK(out[6 * t + 3] == band);
      CHECK(out[6 * t + 4] == bor);
      CHECK(out[6 * t + 5] == bxor);
      CHECK(signed_out[3 * t + 0] == sadd);
      CHECK(signed_out[3 * t + 1] == smin);
      CHECK(signed_out[3 * t + 2] == smax);
    }
    cudaFree(out);
    cudaFree(signed_out);
  }
}
