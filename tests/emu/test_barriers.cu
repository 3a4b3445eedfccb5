// Conformance: block barriers and fences. __syncthreads_count/_and/_or results
// (seen by every thread), __syncwarp, __threadfence* in a last-block reduction,
// a double-buffered Kogge-Stone scan and a Brent-Kung scan for block sizes 32,
// 64, 256 and 1024 (exact integers), and a 16x16-tiled matrix product of
// non-multiple sizes (37x53 times 53x29) that must match a CPU loop exactly.
// Plain CUDA: it also builds with nvcc (with tests/catch_main.cpp), and every
// case passes on an H100 with CUDA 13.0 (driver 580).
#include <catch2/catch.hpp>
#include <vector>

namespace {

__global__ void vote_barriers(int* out, int n) {
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  const int count = __syncthreads_count(t % 3 == 0);
  const int all_below = __syncthreads_and(t < n);
  const int all_not_17 = __syncthreads_and(t != 17);
  const int any_200 = __syncthreads_or(t == 200);
  const int any_none = __syncthreads_or(0);
  const int count_big = __syncthreads_count(t * 1000);  // any non-zero value counts as true
  out[i * 6 + 0] = count;
  out[i * 6 + 1] = all_below;
  out[i * 6 + 2] = all_not_17;
  out[i * 6 + 3] = any_200;
  out[i * 6 + 4] = any_none;
  out[i * 6 + 5] = count_big;
}

// Each lane writes its slot, __syncwarp, then reads its neighbour's.
__global__ void warp_exchange(int* out) {
  __shared__ int slots[128];
  const int t = threadIdx.x;
  const int warp_base = t / 32 * 32;
  slots[t] = t * t;
  __syncwarp();
  const int neighbour = slots[warp_base + (t + 1) % 32];
  __syncwarp();
  slots[t] = neighbour + 1;
  __syncwarp(0xffffffff);
  out[blockIdx.x * blockDim.x + t] = slots[warp_base + (t + 31) % 32];
}

// The classic last-block reduction (CUDA samples' threadFenceReduction).
__global__ void fenced_sum(const int* in, int* partial, unsigned* done, int* result, int n) {
  __shared__ int s[128];
  __shared__ bool is_last;
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    const unsigned ticket = atomicInc(done, gridDim.x);
    is_last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (is_last && t == 0) {
    const volatile int* vp = partial;
    int total = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) total += vp[b];
    __threadfence_block();
    __threadfence_system();
    *result = total;
    *done = 0;
  }
}

// Inclusive scan of each block's segment, Kogge-Stone with two buffers.
__global__ void kogge_stone_scan(const int* in, int* out, int n) {
  extern __shared__ int buffers[];
  int* src = buffers;
  int* dst = buffers + blockDim.x;
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  src[t] = i < n ? in[i] : 0;
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    __syncthreads();
    dst[t] = t >= static_cast<int>(stride) ? src[t] + src[t - stride] : src[t];
    int* tmp = src;
    src = dst;
    dst = tmp;
  }
  if (i < n) out[i] = src[t];
}

// Inclusive scan of each block's 2*blockDim.x elements, Brent-Kung.
__global__ void brent_kung_scan(const int* in, int* out, int n) {
  extern __shared__ int xy[];
  const int section = 2 * blockDim.x;
  const int t = threadIdx.x;
  const int i = 2 * blockIdx.x * blockDim.x + t;
  xy[t] = i < n ? in[i] : 0;
  xy[t + blockDim.x] = i + static_cast<int>(blockDim.x) < n ? in[i + blockDim.x] : 0;
  for (int stride = 1; stride <= static_cast<int>(blockDim.x); stride *= 2) {
    __syncthreads();
    const int index = (t + 1) * 2 * stride - 1;
    if (index < section) xy[index] += xy[index - stride];
  }
  for (int stride = section / 4; stride > 0; stride /= 2) {
    __syncthreads();
    const int index = (t + 1) * stride * 2 - 1;
    if (index + stride < section) xy[index + stride] += xy[index];
  }
  __syncthreads();
  if (i < n) out[i] = xy[t];
  if (i + static_cast<int>(blockDim.x) < n) out[i + blockDim.x] = xy[t + blockDim.x];
}

constexpr int kTile = 16;

__global__ void tiled_matmul(const float* a, const float* b, float* c, int m, int k, int n) {
  __shared__ float as[kTile][kTile];
  __shared__ float bs[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * kTile + ty;
  const int col = blockIdx.x * kTile + tx;
  float sum = 0.0f;
  for (int p = 0; p < (k + kTile - 1) / kTile; ++p) {
    const int ak = p * kTile + tx;
    const int bk = p * kTile + ty;
    as[ty][tx] = row < m && ak < k ? a[row * k + ak] : 0.0f;
    bs[ty][tx] = bk < k && col < n ? b[bk * n + col] : 0.0f;
    __syncthreads();
    for (int q = 0; q < kTile; ++q) sum += as[ty][q] * bs[q][tx];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = sum;
}

std::vector<int> scan_input(int n) {
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = (i * 7919) % 23 - 11;
  return v;
}

// Inclusive scan restarted every `segment` elements.
std::vector<int> segmented_scan(const std::vector<int>& v, int segment) {
  std::vector<int> r(v.size());
  for (size_t i = 0; i < v.size(); ++i) r[i] = v[i] + (i % segment ? r[i - 1] : 0);
  return r;
}

}  // namespace

TEST_CASE("__syncthreads_count, __syncthreads_and and __syncthreads_or give every thread the block's result") {
  for (int threads : {256, 100}) {
    const int blocks = 3;
    const int total = blocks * threads;
    int* d = nullptr;
    REQUIRE(cudaMalloc(&d, total * 6 * sizeof(int)) == cudaSuccess);
    vote_barriers<<<blocks, threads>>>(d, threads);
    REQUIRE(cudaGetLastError() == cudaSuccess);
    std::vector<int> h(total * 6);
    cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost);
    const int expected_count = (threads + 2) / 3;  // t = 0, 3, 6, ...
    const int expected_any_200 = threads > 200 ? 1 : 0;
    int wrong = 0;
    for (int i = 0; i < total; ++i) {
      wrong += h[i * 6 + 0] != expected_count;
      wrong += h[i * 6 + 1] != 1;
      wrong += h[i * 6 + 2] != 0;
      wrong += h[i * 6 + 3] != expected_any_200;
      wrong += h[i * 6 + 4] != 0;
      wrong += h[i * 6 + 5] != threads - 1;
    }
    INFO("threads per block " << threads << ", first thread: count " << h[0] << " and " << h[1] << "," << h[2]
                              << " or " << h[3] << "," << h[4] << " count " << h[5]);
    CHECK(wrong == 0);
    cudaFree(d);
  }
}

TEST_CASE("__syncwarp orders shared-memory exchanges within a warp") {
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, 2 * 128 * sizeof(int)) == cudaSuccess);
  warp_exchange<<<2, 128>>>(d);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  std::vector<int> h(256);
  cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int b = 0; b < 2; ++b)
    for (int t = 0; t < 128; ++t) {
      // out[t] = slots[prev] = value of prev's neighbour + 1 = t*t + 1, prev = (t+31)%32 in the warp.
      wrong += h[b * 128 + t] != t * t + 1;
    }
  CHECK(wrong == 0);
  cudaFree(d);
}

TEST_CASE("__threadfence, __threadfence_block and __threadfence_system in a last-block reduction") {
  const int n = 5000, threads = 128, blocks = (n + threads - 1) / threads;
  std::vector<int> h(n);
  long long expected = 0;
  for (int i = 0; i < n; ++i) {
    h[i] = (i % 17) - 3;
    expected += h[i];
  }
  int *in = nullptr, *partial = nullptr, *result = nullptr;
  unsigned* done = nullptr;
  REQUIRE(cudaMalloc(&in, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&partial, blocks * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&result, sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&done, sizeof(unsigned)) == cudaSuccess);
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(done, 0, sizeof(unsigned));
  for (int round = 0; round < 3; ++round) {
    cudaMemset(result, 0, sizeof(int));
    fenced_sum<<<blocks, threads>>>(in, partial, done, result, n);
    REQUIRE(cudaGetLastError() == cudaSuccess);
    int r = 0;
    unsigned counter = 99;
    cudaMemcpy(&r, result, sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(&counter, done, sizeof(unsigned), cudaMemcpyDeviceToHost);
    CHECK(r == expected);
    CHECK(counter == 0u);
  }
  cudaFree(in);
  cudaFree(partial);
  cudaFree(result);
  cudaFree(done);
}

TEST_CASE("Kogge-Stone block scan (double-buffered) is exact for block sizes 32, 64, 256 and 1024") {
  for (int threads : {32, 64, 256, 1024}) {
    const int n = 3 * threads - 5;  // the last block is partial
    const std::vector<int> h = scan_input(n);
    int *in = nullptr, *out = nullptr;
    REQUIRE(cudaMalloc(&in, n * sizeof(int)) == cudaSuccess);
    REQUIRE(cudaMalloc(&out, n * sizeof(int)) == cudaSuccess);
    cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    kogge_stone_scan<<<(n + threads - 1) / threads, threads, 2 * threads * sizeof(int)>>>(in, out, n);
    REQUIRE(cudaGetLastError() == cudaSuccess);
    std::vector<int> r(n);
    cudaMemcpy(r.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
    INFO("threads per block " << threads);
    CHECK(r == segmented_scan(h, threads));
    cudaFree(in);
    cudaFree(out);
  }
}

TEST_CASE("Brent-Kung block scan is exact for block sizes 32, 64, 256 and 1024") {
  for (int threads : {32, 64, 256, 1024}) {
    const int section = 2 * threads;
    const int n = 3 * section - 7;
    const std::vector<int> h = scan_input(n);
    int *in = nullptr, *out = nullptr;
    REQUIRE(cudaMalloc(&in, n * sizeof(int)) == cudaSuccess);
    REQUIRE(cudaMalloc(&out, n * sizeof(int)) == cudaSuccess);
    cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    brent_kung_scan<<<(n + section - 1) / section, threads, section * sizeof(int)>>>(in, out, n);
    REQUIRE(cudaGetLastError() == cudaSuccess);
    std::vector<int> r(n);
    cudaMemcpy(r.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
    INFO("threads per block " << threads);
    CHECK(r == segmented_scan(h, section));
    cudaFree(in);
    cudaFree(out);
  }
}

TEST_CASE("16x16-tiled matrix product of 37x53 by 53x29 matches a CPU loop exactly") {
  const int m = 37, k = 53, n = 29;
  std::vector<float> a(m * k), b(k * n), expected(m * n, 0.0f);
  for (int i = 0; i < m * k; ++i) a[i] = static_cast<float>((i * 31) % 9 - 4);
  for (int i = 0; i < k * n; ++i) b[i] = static_cast<float>((i * 17) % 7 - 3);
  for (int r = 0; r < m; ++r)
    for (int c = 0; c < n; ++c) {
      float s = 0.0f;
      for (int q = 0; q < k; ++q) s += a[r * k + q] * b[q * n + c];
      expected[r * n + c] = s;
    }
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  REQUIRE(cudaMalloc(&da, a.size() * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMalloc(&db, b.size() * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMalloc(&dc, expected.size() * sizeof(float)) == cudaSuccess);
  cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice);
  const dim3 block(kTile, kTile);
  const dim3 grid((n + kTile - 1) / kTile, (m + kTile - 1) / kTile);
  tiled_matmul<<<grid, block>>>(da, db, dc, m, k, n);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  std::vector<float> c(m * n);
  cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost);
  CHECK(c == expected);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
}
