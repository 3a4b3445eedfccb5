// Conformance: kernel launches. The 3-D built-in index variables (every thread
// of a 3-D grid of 3-D blocks), dim3 defaults and warpSize; the launch forms
// <<<g,b>>>, <<<g,b,smem>>>, <<<g,b,smem,stream>>>; template kernels (explicit
// and deduced), launches in loops, in helper functions and split over lines;
// __host__ __device__ functions, __forceinline__, __noinline__ (as a qualifier,
// through a macro, and the GNU attribute spelling), __restrict__,
// __launch_bounds__; arguments evaluated once on the host, structs by value.
// Plain CUDA: it also builds with nvcc (with tests/catch_main.cpp), and every
// case passes on an H100 with CUDA 13.0 (driver 580).
#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

__device__ int device_counter;

namespace {

struct Indices {
  unsigned tx, ty, tz, bx, by, bz, dx, dy, dz, gx, gy, gz;
};

__global__ void record_indices(Indices* out) {
  const unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  const unsigned rank = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned slot = block * (blockDim.x * blockDim.y * blockDim.z) + rank;
  out[slot] = Indices{threadIdx.x, threadIdx.y, threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z,
                      blockDim.x,  blockDim.y,  blockDim.z,  gridDim.x,  gridDim.y,  gridDim.z};
}

__global__ void record_dims(unsigned* out) {
  out[0] = gridDim.x;
  out[1] = gridDim.y;
  out[2] = gridDim.z;
  out[3] = blockDim.x;
  out[4] = blockDim.y;
  out[5] = blockDim.z;
}

__global__ void record_warp_size(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = warpSize; }

__global__ void iota(int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = i;
}

__global__ void add_value(int* data, int n, int v) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += v;
}

// Uses the launch's dynamic shared memory: reverses each block's slice.
__global__ void reverse_in_block(const int* in, int* out) {
  extern __shared__ int staging[];
  const int t = threadIdx.x;
  const int base = blockIdx.x * blockDim.x;
  staging[t] = in[base + t];
  __syncthreads();
  out[base + t] = staging[blockDim.x - 1 - t];
}

// Dynamic shared memory as rows (`T name[][N]`, as tensor-core GEMM samples declare their tiles):
// a block transposes its 8 x 8 slice through a padded tile, inside the kernel and at file scope.
extern __shared__ int file_rows[][9];
__global__ void transpose_through_rows(const int* in, int* out, int* out2) {
  extern __shared__ int rows[][9];
  const int r = threadIdx.y, c = threadIdx.x, base = blockIdx.x * 64;
  rows[r][c] = in[base + r * 8 + c];
  __syncthreads();
  out[base + r * 8 + c] = rows[c][r];
  __syncthreads();
  file_rows[r][c] = in[base + r * 8 + c] + 1;
  __syncthreads();
  out2[base + r * 8 + c] = file_rows[c][r];
}

// Dynamic shared memory reached through a getter a macro writes, one per type, as cuda-samples'
// cudasharedmem.h does: the block's slice reversed through it.
template <typename T> struct SharedOf;
#define GPULAB_TEST_SHARED_OF(t, n)     \
  template <> struct SharedOf<t> {      \
    __device__ t* get() {               \
      extern __shared__ t n[];          \
      return n;                         \
    }                                   \
  }
GPULAB_TEST_SHARED_OF(int, shared_ints);
__global__ void reverse_through_macro(const int* in, int* out) {
  int* staging = SharedOf<int>().get();
  const int t = threadIdx.x, base = blockIdx.x * blockDim.x;
  staging[t] = in[base + t];
  __syncthreads();
  out[base + t] = staging[blockDim.x - 1 - t];
}

template <typename T, int N>
__global__ void fill_plus_n(T* out, T v) {
  out[blockIdx.x * N + threadIdx.x] = v + static_cast<T>(N);
}

template <typename T>
__global__ void scale(T* data, T factor, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

__host__ __device__ int square_plus_one(int x) { return x * x + 1; }

__global__ void apply_square_plus_one(int* data, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = square_plus_one(data[i]);
}

__device__ __forceinline__ float twice(float x) { return 2.0f * x; }

// nvcc's qualifier, a macro that uses it, and the GNU attribute of the same name.
#define GPULAB_TEST_OUTLINED __device__ __noinline__
__device__ __noinline__ float plus_one(float x) { return x + 1.0f; }
GPULAB_TEST_OUTLINED float minus_two(float x) { return x - 2.0f; }
__device__ __attribute__((__noinline__)) float halve(float x) { return 0.5f * x; }

__global__ void outlined_calls(float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = halve(minus_two(plus_one(y[i])));
}

__global__ void __launch_bounds__(256) saxpy_restrict(const float* __restrict__ x, float* __restrict__ y, float a,
                                                      int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + twice(y[i]);
}

__global__ void record_argument(int* out, int value) { out[threadIdx.x] = value; }

struct Params {
  int base;
  float scale;
  int offsets[4];
  char tag;
};

// Each thread changes its own copy of the parameter: no thread sees another's change.
__global__ void use_params(Params p, float* out) {
  p.base += threadIdx.x;
  p.offsets[threadIdx.x % 4] += 1000;
  out[threadIdx.x] = p.base * p.scale + p.offsets[threadIdx.x % 4] + p.offsets[(threadIdx.x + 1) % 4] + p.tag;
}

__global__ void no_arguments() { atomicAdd(&device_counter, 1); }

void launch_add_helper(int* d, int n, int v) { add_value<<<(n + 31) / 32, 32>>>(d, n, v); }

template <typename T>
void launch_scale_helper(T* d, T f, int n) {
  scale<<<(n + 63) / 64, 64>>>(d, f, n);
}

std::vector<int> to_host(const int* d, int n) {
  std::vector<int> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost);
  return h;
}

}  // namespace

TEST_CASE("3-D threadIdx/blockIdx/blockDim/gridDim of every thread of a (3,2,2) grid of (4,3,2) blocks") {
  const dim3 grid(3, 2, 2), block(4, 3, 2);
  const int threads = 3 * 2 * 2 * 4 * 3 * 2;  // 288
  Indices* d = nullptr;
  REQUIRE(cudaMalloc(&d, threads * sizeof(Indices)) == cudaSuccess);
  REQUIRE(cudaMemset(d, 0xFF, threads * sizeof(Indices)) == cudaSuccess);
  record_indices<<<grid, block>>>(d);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<Indices> h(threads);
  REQUIRE(cudaMemcpy(h.data(), d, threads * sizeof(Indices), cudaMemcpyDeviceToHost) == cudaSuccess);
  int wrong = 0;
  int slot = 0;
  for (unsigned bz = 0; bz < 2; ++bz)
    for (unsigned by = 0; by < 2; ++by)
      for (unsigned bx = 0; bx < 3; ++bx)
        for (unsigned tz = 0; tz < 2; ++tz)
          for (unsigned ty = 0; ty < 3; ++ty)
            for (unsigned tx = 0; tx < 4; ++tx, ++slot) {
              const Indices& r = h[slot];
              const bool ok = r.tx == tx && r.ty == ty && r.tz == tz && r.bx == bx && r.by == by && r.bz == bz &&
                              r.dx == 4 && r.dy == 3 && r.dz == 2 && r.gx == 3 && r.gy == 2 && r.gz == 2;
              if (!ok) {
                ++wrong;
                UNSCOPED_INFO("slot " << slot << ": thread (" << r.tx << "," << r.ty << "," << r.tz << ") block ("
                                      << r.bx << "," << r.by << "," << r.bz << ") expected (" << tx << "," << ty
                                      << "," << tz << ") (" << bx << "," << by << "," << bz << ")");
              }
            }
  CHECK(wrong == 0);
  cudaFree(d);
}

TEST_CASE("dim3 leaves unspecified extents at 1, and integer launch sizes become (n,1,1)") {
  const dim3 a;
  CHECK((a.x == 1 && a.y == 1 && a.z == 1));
  const dim3 b(7);
  CHECK((b.x == 7 && b.y == 1 && b.z == 1));
  const dim3 c(7, 5);
  CHECK((c.x == 7 && c.y == 5 && c.z == 1));
  const dim3 e(7, 5, 3);
  CHECK((e.x == 7 && e.y == 5 && e.z == 3));

  unsigned* d = nullptr;
  REQUIRE(cudaMalloc(&d, 6 * sizeof(unsigned)) == cudaSuccess);
  record_dims<<<5, 3>>>(d);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  unsigned h[6] = {};
  REQUIRE(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(h[0] == 5);
  CHECK(h[1] == 1);
  CHECK(h[2] == 1);
  CHECK(h[3] == 3);
  CHECK(h[4] == 1);
  CHECK(h[5] == 1);

  record_dims<<<dim3(2, 4), dim3(8, 2)>>>(d);
  REQUIRE(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(h[0] == 2);
  CHECK(h[1] == 4);
  CHECK(h[2] == 1);
  CHECK(h[3] == 8);
  CHECK(h[4] == 2);
  CHECK(h[5] == 1);
  cudaFree(d);
}

TEST_CASE("warpSize is 32 in every thread") {
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, 2 * 48 * sizeof(int)) == cudaSuccess);
  record_warp_size<<<2, 48>>>(d);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  const std::vector<int> h = to_host(d, 2 * 48);
  for (int i = 0; i < 2 * 48; ++i) CHECK(h[i] == 32);
  cudaFree(d);
}

TEST_CASE("launch forms <<<g,b>>>, <<<g,b,smem>>> and <<<g,b,smem,stream>>>") {
  const int n = 4 * 64;
  int *in = nullptr, *out = nullptr;
  REQUIRE(cudaMalloc(&in, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&out, n * sizeof(int)) == cudaSuccess);

  iota<<<4, 64>>>(in, n);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  std::vector<int> h = to_host(in, n);
  for (int i = 0; i < n; ++i) REQUIRE(h[i] == i);

  reverse_in_block<<<4, 64, 64 * sizeof(int)>>>(in, out);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  h = to_host(out, n);
  for (int i = 0; i < n; ++i) REQUIRE(h[i] == (i / 64) * 64 + 63 - i % 64);

  cudaStream_t stream;
  REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
  cudaMemset(out, 0, n * sizeof(int));
  reverse_in_block<<<4, 64, 64 * sizeof(int), stream>>>(in, out);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
  h = to_host(out, n);
  for (int i = 0; i < n; ++i) REQUIRE(h[i] == (i / 64) * 64 + 63 - i % 64);

  // The default stream named explicitly, with no dynamic shared memory.
  add_value<<<4, 64, 0, 0>>>(out, n, 1);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  h = to_host(out, n);
  for (int i = 0; i < n; ++i) REQUIRE(h[i] == (i / 64) * 64 + 63 - i % 64 + 1);

  REQUIRE(cudaStreamDestroy(stream) == cudaSuccess);
  cudaFree(in);
  cudaFree(out);
}

TEST_CASE("dynamic shared memory declared as rows, extern __shared__ int rows[][9]") {
  const int n = 2 * 64;
  int *in = nullptr, *out = nullptr, *out2 = nullptr;
  REQUIRE(cudaMalloc(&in, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&out, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&out2, n * sizeof(int)) == cudaSuccess);
  iota<<<2, 64>>>(in, n);
  transpose_through_rows<<<2, dim3(8, 8), 8 * 9 * sizeof(int)>>>(in, out, out2);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const std::vector<int> h = to_host(out, n), h2 = to_host(out2, n);
  for (int i = 0; i < n; ++i) {
    const int block = i / 64, r = i % 64 / 8, c = i % 8;
    REQUIRE(h[i] == block * 64 + c * 8 + r);
    REQUIRE(h2[i] == block * 64 + c * 8 + r + 1);
  }
  cudaFree(in);
  cudaFree(out);
  cudaFree(out2);
}

TEST_CASE("dynamic shared memory through a getter a macro writes (extern __shared__ in a #define body)") {
  const int n = 2 * 64;
  int *in = nullptr, *out = nullptr;
  REQUIRE(cudaMalloc(&in, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMalloc(&out, n * sizeof(int)) == cudaSuccess);
  iota<<<2, 64>>>(in, n);
  reverse_through_macro<<<2, 64, 64 * sizeof(int)>>>(in, out);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  const std::vector<int> h = to_host(out, n);
  for (int i = 0; i < n; ++i) REQUIRE(h[i] == (i / 64) * 64 + 63 - i % 64);
  cudaFree(in);
  cudaFree(out);
}

TEST_CASE("template kernels with explicit arguments (k<float, 128>) and deduced ones") {
  float* f = nullptr;
  REQUIRE(cudaMalloc(&f, 2 * 128 * sizeof(float)) == cudaSuccess);
  fill_plus_n<float, 128><<<2, 128>>>(f, 0.5f);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  std::vector<float> hf(256);
  cudaMemcpy(hf.data(), f, 256 * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 256; ++i) REQUIRE(hf[i] == 128.5f);

  int* k = nullptr;
  REQUIRE(cudaMalloc(&k, 3 * 32 * sizeof(int)) == cudaSuccess);
  fill_plus_n<int, 32><<<3, 32>>>(k, -40);
  const std::vector<int> hk = to_host(k, 96);
  for (int i = 0; i < 96; ++i) REQUIRE(hk[i] == -8);

  const int n = 100;
  std::vector<double> hd(n);
  for (int i = 0; i < n; ++i) hd[i] = i + 0.25;
  double* dd = nullptr;
  REQUIRE(cudaMalloc(&dd, n * sizeof(double)) == cudaSuccess);
  cudaMemcpy(dd, hd.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  scale<<<(n + 31) / 32, 32>>>(dd, 4.0, n);  // T = double, deduced
  REQUIRE(cudaGetLastError() == cudaSuccess);
  cudaMemcpy(hd.data(), dd, n * sizeof(double), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) REQUIRE(hd[i] == 4.0 * i + 1.0);

  launch_scale_helper(dd, 0.5, n);  // deduced inside a template helper
  cudaMemcpy(hd.data(), dd, n * sizeof(double), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) REQUIRE(hd[i] == 2.0 * i + 0.5);

  cudaFree(f);
  cudaFree(k);
  cudaFree(dd);
}

TEST_CASE("launches in a loop, in a helper function, and split over several lines") {
  const int n = 1000;
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess);
  REQUIRE(cudaMemset(d, 0, n * sizeof(int)) == cudaSuccess);

  for (int round = 1; round <= 5; ++round) add_value<<<(n + 127) / 128, 128>>>(d, n, round);  // +15
  for (int round = 0; round < 3; ++round) {
    launch_add_helper(d, n, 100);  // +300
  }
  add_value<<<
      dim3((n + 255) / 256, 1, 1),
      dim3(256, 1, 1)
  >>>(d,
      n,
      7000);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  const std::vector<int> h = to_host(d, n);
  for (int i = 0; i < n; ++i) REQUIRE(h[i] == 7315);
  cudaFree(d);
}

TEST_CASE("a __host__ __device__ function gives the same results on both sides") {
  const int n = 70;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = i - 35;
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, n * sizeof(int)) == cudaSuccess);
  cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  apply_square_plus_one<<<3, 32>>>(d, n);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  const std::vector<int> r = to_host(d, n);
  for (int i = 0; i < n; ++i) REQUIRE(r[i] == square_plus_one(i - 35));
  CHECK(square_plus_one(-35) == 1226);
  cudaFree(d);
}

TEST_CASE("__forceinline__, __restrict__ and __launch_bounds__(256)") {
  const int n = 1000;
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; ++i) {
    hx[i] = static_cast<float>(i);
    hy[i] = static_cast<float>(i % 7);
  }
  float *x = nullptr, *y = nullptr;
  REQUIRE(cudaMalloc(&x, n * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMalloc(&y, n * sizeof(float)) == cudaSuccess);
  cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(y, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  saxpy_restrict<<<(n + 255) / 256, 256>>>(x, y, 3.0f, n);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  std::vector<float> r(n);
  cudaMemcpy(r.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) REQUIRE(r[i] == 3.0f * i + 2.0f * (i % 7));
  cudaFree(x);
  cudaFree(y);
}

TEST_CASE("__noinline__ functions") {
  const int n = 100;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = static_cast<float>(i);
  float* y = nullptr;
  REQUIRE(cudaMalloc(&y, n * sizeof(float)) == cudaSuccess);
  cudaMemcpy(y, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  outlined_calls<<<1, 128>>>(y, n);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  cudaMemcpy(h.data(), y, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) REQUIRE(h[i] == 0.5f * (static_cast<float>(i) - 1.0f));
  cudaFree(y);
}

TEST_CASE("kernel arguments are evaluated once, on the host") {
  int* d = nullptr;
  REQUIRE(cudaMalloc(&d, 64 * sizeof(int)) == cudaSuccess);
  int counter = 5;
  record_argument<<<1, 64>>>(d, counter++);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  CHECK(counter == 6);
  std::vector<int> h = to_host(d, 64);
  for (int i = 0; i < 64; ++i) REQUIRE(h[i] == 5);

  int calls = 0;
  auto next = [&calls] { return 10 * ++calls; };
  record_argument<<<1, 64>>>(d, next());
  CHECK(calls == 1);
  h = to_host(d, 64);
  for (int i = 0; i < 64; ++i) REQUIRE(h[i] == 10);
  cudaFree(d);
}

TEST_CASE("a struct passed by value: every thread gets its own copy, the host's is unchanged") {
  Params p;
  p.base = 10;
  p.scale = 0.5f;
  p.offsets[0] = 1;
  p.offsets[1] = 2;
  p.offsets[2] = 3;
  p.offsets[3] = 4;
  p.tag = 'A';  // 65
  float* d = nullptr;
  REQUIRE(cudaMalloc(&d, 64 * sizeof(float)) == cudaSuccess);
  use_params<<<1, 64>>>(p, d);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  std::vector<float> h(64);
  cudaMemcpy(h.data(), d, 64 * sizeof(float), cudaMemcpyDeviceToHost);
  for (int t = 0; t < 64; ++t) {
    const int mine = t % 4, next = (t + 1) % 4;
    const float expected = (10 + t) * 0.5f + (mine + 1 + 1000) + (next + 1) + 65;
    REQUIRE(h[t] == expected);
  }
  CHECK(p.base == 10);
  CHECK(p.offsets[0] == 1);
  CHECK(p.offsets[3] == 4);
  cudaFree(d);
}

TEST_CASE("a kernel without arguments, and a __device__ variable") {
  const int zero = 0;
  REQUIRE(cudaMemcpyToSymbol(device_counter, &zero, sizeof(int)) == cudaSuccess);
  no_arguments<<<3, 50>>>();
  REQUIRE(cudaGetLastError() == cudaSuccess);
  int h = 0;
  REQUIRE(cudaMemcpyFromSymbol(&h, device_counter, sizeof(int)) == cudaSuccess);
  CHECK(h == 150);
}
