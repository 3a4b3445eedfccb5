// Conformance: shared and constant memory. 1-D and 2-D __shared__ arrays in
// kernels and in __device__ functions, one copy per block; extern __shared__
// memory sized by the launch (two arrays carved from one buffer, at function
// and at namespace scope, next to static __shared__ arrays); the emulator's
// poisoning of uninitialised shared memory (NaN / -1 in every block);
// __constant__ arrays written and read with cudaMemcpyToSymbol/FromSymbol
// (host and device sources, offsets, copies past the symbol).
// The poisoning checks, which only the emulator promises, are under
// #ifdef GPULAB_EMULATOR; the rest is plain CUDA: it also builds with nvcc
// (with tests/catch_main.cpp), and every case passes on an H100 with CUDA 13.0.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <vector>

__constant__ float c_weights[8];
__constant__ int c_table[16];

extern __shared__ int dynamic_at_namespace_scope[];
__shared__ int static_at_namespace_scope[64];

namespace {

constexpr int kBlocks = 64;

__global__ void shared_1d_per_block(int* values, unsigned* owners) {
  __shared__ int s[64];
  __shared__ unsigned owner;
  const int t = threadIdx.x;
  s[t] = blockIdx.x * 1000 + t;
  if (t == 0) owner = blockIdx.x;
  __syncthreads();
  values[blockIdx.x * 64 + t] = s[63 - t];
  owners[blockIdx.x * 64 + t] = owner;
}

__global__ void shared_2d_transpose(float* out) {
  __shared__ float tile[8][9];
  const int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty][tx] = blockIdx.x * 100.0f + ty * 8 + tx;
  __syncthreads();
  out[blockIdx.x * 64 + ty * 8 + tx] = tile[tx][ty];
}

__device__ unsigned block_tag() {
  __shared__ unsigned tag;
  if (threadIdx.x == 0) tag = blockIdx.x;
  __syncthreads();
  return tag;
}

__device__ int rotate_within_warp(int v) {
  __shared__ int rows[4][32];
  rows[threadIdx.x / 32][threadIdx.x % 32] = v;
  __syncthreads();
  const int r = rows[threadIdx.x / 32][(threadIdx.x + 1) % 32];
  __syncthreads();
  return r;
}

// Each instantiation has its own array.
template <int N>
__device__ int block_sum(int v) {
  __shared__ int s[N];
  s[threadIdx.x] = v;
  __syncthreads();
  for (int stride = N / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  const int total = s[0];
  __syncthreads();  // everyone has read s[0] before the array is reused
  return total;
}

__global__ void shared_in_device_functions(unsigned* tags, int* rotated, int* sums) {
  const int i = blockIdx.x * 128 + threadIdx.x;
  tags[i] = block_tag();
  rotated[i] = rotate_within_warp(blockIdx.x * 1000 + threadIdx.x);
  const int first = block_sum<128>(blockIdx.x + 1);
  const int second = block_sum<128>(1);
  sums[i] = first + second * 1000;
}

// Two arrays carved from one extern buffer, as the course does it.
__global__ void carve_two_arrays(const float* a, const int* b, float* out) {
  extern __shared__ float smem[];
  float* fs = smem;
  int* is = reinterpret_cast<int*>(&fs[blockDim.x]);
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  fs[t] = a[i];
  is[t] = b[i];
  __syncthreads();
  out[i] = fs[blockDim.x - 1 - t] * is[(t + 1) % blockDim.x];
}

__global__ void namespace_scope_extern(int* out) {
  const int t = threadIdx.x;
  dynamic_at_namespace_scope[t] = blockIdx.x * 10000 + t * 2;
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = dynamic_at_namespace_scope[blockDim.x - 1 - t];
}

__global__ void namespace_scope_static(int* values, int* first_reads) {
  const int t = threadIdx.x;
  first_reads[blockIdx.x * 64 + t] = static_at_namespace_scope[t];
  __syncthreads();
  static_at_namespace_scope[t] = blockIdx.x * 1000 + t;
  __syncthreads();
  values[blockIdx.x * 64 + t] = static_at_namespace_scope[63 - t];
}

// Static and dynamic shared memory do not overlap.
__global__ void static_and_dynamic(int* out) {
  extern __shared__ int dyn[];
  __shared__ int fixed[32];
  const int t = threadIdx.x;
  for (int k = t; k < 256; k += 32) dyn[k] = -k;
  fixed[t] = 5000 + t;
  __syncthreads();
  for (int k = t; k < 256; k += 32) out[k] = dyn[k];
  out[256 + t] = fixed[t];
}

#ifdef GPULAB_EMULATOR
__global__ void read_uninitialised(unsigned* float_bits, float* floats, int* ints, int* dyn_out) {
  __shared__ float sf[32];
  __shared__ int si[32];
  extern __shared__ int dyn[];
  const int t = threadIdx.x;
  const int i = blockIdx.x * 32 + t;
  const float f = sf[t];
  float_bits[i] = __float_as_uint(f);
  floats[i] = f;
  ints[i] = si[t];
  dyn_out[i] = dyn[t];
  __syncthreads();
  // Leave the memory dirty: the next block must not see these values.
  sf[t] = 1.0f;
  si[t] = 7;
  dyn[t] = 9;
}
#endif

__global__ void read_constants(float* f, int* k) {
  const int t = threadIdx.x;
  if (t < 8) f[t] = c_weights[t] * 2.0f;
  if (t < 16) k[t] = c_table[t];
}

struct Constants {
  std::vector<float> weights = std::vector<float>(8);
  std::vector<int> table = std::vector<int>(16);
};

Constants read_back_through_kernel() {
  float* f = nullptr;
  int* k = nullptr;
  cudaMalloc(&f, 8 * sizeof(float));
  cudaMalloc(&k, 16 * sizeof(int));
  read_constants<<<1, 32>>>(f, k);
  Constants c;
  cudaMemcpy(c.weights.data(), f, 8 * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(c.table.data(), k, 16 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(f);
  cudaFree(k);
  return c;
}

}  // namespace

TEST_CASE("1-D __shared__ arrays in a kernel: one copy per block") {
  int* values = nullptr;
  unsigned* owners = nullptr;
  REQUIRE(cudaMalloc(&values, kBlocks * 64 * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&owners, kBlocks * 64 * sizeof(unsigned)) == cudaSuccess);
  shared_1d_per_block<<<kBlocks, 64>>>(values, owners);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  std::vector<int> v(kBlocks * 64);
  std::vector<unsigned> o(kBlocks * 64);
  cudaMemcpy(v.data(), values, v.size() * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(o.data(), owners, o.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int b = 0; b < kBlocks; ++b)
    for (int t = 0; t < 64; ++t) {
      wrong += v[b * 64 + t] != b * 1000 + 63 - t;
      wrong += o[b * 64 + t] != static_cast<unsigned>(b);
    }
  CHECK(wrong == 0);
  cudaFree(values);
  cudaFree(owners);
}

TEST_CASE("2-D __shared__ array in a kernel: per-block transpose") {
  float* d = nullptr;
  REQUIRE(cudaMalloc(&d, kBlocks * 64 * sizeof(float)) == cudaSuccess);
  shared_2d_transpose<<<kBlocks, dim3(8, 8)>>>(d);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  std::vector<float> h(kBlocks * 64);
  cudaMemcpy(h.data(), d, h.size() * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int b = 0; b < kBlocks; ++b)
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 8; ++x) wrong += h[b * 64 + y * 8 + x] != b * 100.0f + x * 8 + y;
  CHECK(wrong == 0);
  cudaFree(d);
}

TEST_CASE("__shared__ scalars and 1-D/2-D arrays in __device__ functions (and templates): one copy per block") {
  const int n = kBlocks * 128;
  unsigned* tags = nullptr;
  int *rotated = nullptr, *sums = nullptr;
  REQUIRE(cudaMalloc(&tags, n * sizeof(unsigned)) == cudaSuccess);
  REQUIRE(cudaMalloc(&rotated, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&sums, n * sizeof(int)) == cudaSuccess);
  shared_in_device_functions<<<kBlocks, 128>>>(tags, rotated, sums);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  std::vector<unsigned> ht(n);
  std::vector<int> hr(n), hs(n);
  cudaMemcpy(ht.data(), tags, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(hr.data(), rotated, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(hs.data(), sums, n * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int b = 0; b < kBlocks; ++b)
    for (int t = 0; t < 128; ++t) {
      const int i = b * 128 + t;
      wrong += ht[i] != static_cast<unsigned>(b);
      wrong += hr[i] != b * 1000 + (t / 32) * 32 + (t + 1) % 32;
      wrong += hs[i] != 128 * (b + 1) + 128 * 1000;
    }
  CHECK(wrong == 0);
  cudaFree(tags);
  cudaFree(rotated);
  cudaFree(sums);
}

TEST_CASE("extern __shared__ sized by the launch: two arrays carved from one buffer") {
  for (int threads : {32, 100, 256}) {
    const int blocks = 5;
    const int n = blocks * threads;
    std::vector<float> ha(n);
    std::vector<int> hb(n);
    for (int i = 0; i < n; ++i) {
      ha[i] = static_cast<float>(i % 97) - 40.0f;
      hb[i] = (i * 13) % 11 - 5;
    }
    float *a = nullptr, *out = nullptr;
    int* b = nullptr;
    REQUIRE(cudaMalloc(&a, n * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaMalloc(&b, n * sizeof(int)) == cudaSuccess);
    REQUIRE(cudaMalloc(&out, n * sizeof(float)) == cudaSuccess);
    cudaMemcpy(a, ha.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    carve_two_arrays<<<blocks, threads, threads * (sizeof(float) + sizeof(int))>>>(a, b, out);
    REQUIRE(cudaGetLastError() == cudaSuccess);
    std::vector<float> r(n);
    cudaMemcpy(r.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int blk = 0; blk < blocks; ++blk)
      for (int t = 0; t < threads; ++t) {
        const int base = blk * threads;
        wrong += r[base + t] != ha[base + threads - 1 - t] * hb[base + (t + 1) % threads];
      }
    INFO("threads per block " << threads);
    CHECK(wrong == 0);
    cudaFree(a);
    cudaFree(b);
    cudaFree(out);
  }
}

TEST_CASE("extern __shared__ declared at namespace scope") {
  const int blocks = 6, threads = 96;
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, blocks * threads * sizeof(int)) == cudaSuccess);
  namespace_scope_extern<<<blocks, threads, threads * sizeof(int)>>>(d);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  std::vector<int> h(blocks * threads);
  cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t) wrong += h[b * threads + t] != b * 10000 + (threads - 1 - t) * 2;
  CHECK(wrong == 0);
  cudaFree(d);
}

TEST_CASE("__shared__ array declared at namespace scope: one copy per block") {
  int *values = nullptr, *first = nullptr;
  REQUIRE(cudaMalloc(&values, kBlocks * 64 * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&first, kBlocks * 64 * sizeof(int)) == cudaSuccess);
  namespace_scope_static<<<kBlocks, 64>>>(values, first);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  std::vector<int> v(kBlocks * 64), f(kBlocks * 64);
  cudaMemcpy(v.data(), values, v.size() * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(f.data(), first, f.size() * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int b = 0; b < kBlocks; ++b)
    for (int t = 0; t < 64; ++t) wrong += v[b * 64 + t] != b * 1000 + 63 - t;
  CHECK(wrong == 0);
#ifdef GPULAB_EMULATOR
  // Uninitialised, like every other __shared__ array: -1 in every block, never a previous block's values.
  int not_poisoned = 0;
  for (int i = 0; i < kBlocks * 64; ++i) not_poisoned += f[i] != -1;
  CHECK(not_poisoned == 0);
#endif
  cudaFree(values);
  cudaFree(first);
}

TEST_CASE("static __shared__ arrays and the dynamic buffer do not overlap") {
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, (256 + 32) * sizeof(int)) == cudaSuccess);
  static_and_dynamic<<<1, 32, 256 * sizeof(int)>>>(d);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  std::vector<int> h(256 + 32);
  cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost);
  for (int k = 0; k < 256; ++k) REQUIRE(h[k] == -k);
  for (int t = 0; t < 32; ++t) REQUIRE(h[256 + t] == 5000 + t);
  cudaFree(d);
}

#ifdef GPULAB_EMULATOR
TEST_CASE("uninitialised shared memory reads as NaN (float) and -1 (int) in every block") {
  const int n = kBlocks * 32;
  unsigned* bits = nullptr;
  float* floats = nullptr;
  int *ints = nullptr, *dyn = nullptr;
  REQUIRE(cudaMalloc(&bits, n * sizeof(unsigned)) == cudaSuccess);
  REQUIRE(cudaMalloc(&floats, n * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMalloc(&ints, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&dyn, n * sizeof(int)) == cudaSuccess);
  for (int launch = 0; launch < 2; ++launch) {
    read_uninitialised<<<kBlocks, 32, 32 * sizeof(int)>>>(bits, floats, ints, dyn);
    REQUIRE(cudaGetLastError() == cudaSuccess);
    std::vector<unsigned> hb(n);
    std::vector<float> hf(n);
    std::vector<int> hi(n), hd(n);
    cudaMemcpy(hb.data(), bits, n * sizeof(unsigned), cudaMemcpyDeviceToHost);
    cudaMemcpy(hf.data(), floats, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(hi.data(), ints, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(hd.data(), dyn, n * sizeof(int), cudaMemcpyDeviceToHost);
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
      wrong += hb[i] != 0xFFFFFFFFu;
      wrong += !std::isnan(hf[i]);
      wrong += hi[i] != -1;
      wrong += hd[i] != -1;
    }
    INFO("launch " << launch);
    CHECK(wrong == 0);
  }
  cudaFree(bits);
  cudaFree(floats);
  cudaFree(ints);
  cudaFree(dyn);
}
#endif

TEST_CASE("__constant__ arrays: cudaMemcpyToSymbol from the host, read by a kernel and by cudaMemcpyFromSymbol") {
  const float w[8] = {0.5f, 1.5f, -2.0f, 3.25f, 4.0f, -5.5f, 6.0f, 7.75f};
  std::vector<int> t(16);
  for (int i = 0; i < 16; ++i) t[i] = i * i - 20;
  REQUIRE(cudaMemcpyToSymbol(c_weights, w, sizeof w) == cudaSuccess);
  REQUIRE(cudaMemcpyToSymbol(c_table, t.data(), 16 * sizeof(int), 0, cudaMemcpyHostToDevice) == cudaSuccess);
  const Constants c = read_back_through_kernel();
  for (int i = 0; i < 8; ++i) CHECK(c.weights[i] == 2.0f * w[i]);
  for (int i = 0; i < 16; ++i) CHECK(c.table[i] == t[i]);

  float back[8] = {};
  REQUIRE(cudaMemcpyFromSymbol(back, c_weights, sizeof back) == cudaSuccess);
  CHECK(std::memcmp(back, w, sizeof w) == 0);
  int part[3] = {};
  REQUIRE(cudaMemcpyFromSymbol(part, c_table, sizeof part, 5 * sizeof(int)) == cudaSuccess);
  CHECK(part[0] == t[5]);
  CHECK(part[1] == t[6]);
  CHECK(part[2] == t[7]);

  // Into device memory.
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, 16 * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMemcpyFromSymbol(d, c_table, 16 * sizeof(int), 0, cudaMemcpyDeviceToDevice) == cudaSuccess);
  std::vector<int> h(16);
  cudaMemcpy(h.data(), d, 16 * sizeof(int), cudaMemcpyDeviceToHost);
  CHECK(h == t);
  cudaFree(d);
}

TEST_CASE("cudaMemcpyToSymbol from device memory (cudaMemcpyDeviceToDevice) and at an offset") {
  std::vector<int> src(16);
  for (int i = 0; i < 16; ++i) src[i] = 100 + i;
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, 16 * sizeof(int)) == cudaSuccess);
  cudaMemcpy(d, src.data(), 16 * sizeof(int), cudaMemcpyHostToDevice);
  REQUIRE(cudaMemcpyToSymbol(c_table, d, 16 * sizeof(int), 0, cudaMemcpyDeviceToDevice) == cudaSuccess);
  Constants c = read_back_through_kernel();
  CHECK(c.table == src);

  const int patch[4] = {-1, -2, -3, -4};
  REQUIRE(cudaMemcpyToSymbol(c_table, patch, sizeof patch, 8 * sizeof(int)) == cudaSuccess);
  c = read_back_through_kernel();
  for (int i = 0; i < 16; ++i) CHECK(c.table[i] == (i >= 8 && i < 12 ? patch[i - 8] : 100 + i));

  // Device-to-device at an offset, from the middle of an allocation.
  REQUIRE(cudaMemcpyToSymbol(c_table, d + 2, 2 * sizeof(int), 14 * sizeof(int), cudaMemcpyDeviceToDevice) ==
          cudaSuccess);
  c = read_back_through_kernel();
  CHECK(c.table[14] == 102);
  CHECK(c.table[15] == 103);
  CHECK(c.table[13] == 113);
  cudaFree(d);
}

TEST_CASE("copies past the end of a symbol fail with cudaErrorInvalidValue and change nothing") {
  std::vector<int> t(16);
  for (int i = 0; i < 16; ++i) t[i] = 3 * i;
  REQUIRE(cudaMemcpyToSymbol(c_table, t.data(), 16 * sizeof(int)) == cudaSuccess);
  const std::vector<int> big(32, 77);

  CHECK(cudaMemcpyToSymbol(c_table, big.data(), 17 * sizeof(int)) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaMemcpyToSymbol(c_table, big.data(), 2 * sizeof(int), 15 * sizeof(int)) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  std::vector<int> back(32, 0);
  CHECK(cudaMemcpyFromSymbol(back.data(), c_table, 20 * sizeof(int)) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaMemcpyFromSymbol(back.data(), c_table, 4 * sizeof(int), 13 * sizeof(int)) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);

  const Constants c = read_back_through_kernel();
  CHECK(c.table == t);
  CHECK(cudaGetLastError() == cudaSuccess);
}
