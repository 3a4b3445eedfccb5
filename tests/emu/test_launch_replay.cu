// Replays of repeated launches (grader/emu/src/launch_replay.hpp): a launch that repeats an
// earlier one on the same device state gets that launch's effect without running, and every
// result stays what running it gives: benchmark loops of identical launches (one kernel, a
// cooperative one, and a period of three as in a multi-level scan) replay, with sizes in int
// arguments above 65535; a kernel that counts in a __device__ variable, accumulates in place,
// reads a clock, prints, or writes managed memory, and inputs changed by the host between
// launches, all still run.
#include <catch2/catch.hpp>
#include <cooperative_groups.h>

#include <vector>

namespace gpulab::emu {
unsigned long long replayed_launches();  // the emulator's count (launch_replay.cpp)
}

namespace {

__device__ int launches_seen;

__global__ void square(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}
__global__ void scale_by(const float* in, float* out, float factor, unsigned short step, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * factor + step;
}
// A single-pass reduction over the grid, as cuda-samples' reductionMultiBlockCG times it: each
// block's sum, grid.sync(), block 0 adds them.
__global__ void grid_sum(const int* in, int* partial, int* total, int n) {
  cooperative_groups::grid_group grid = cooperative_groups::this_grid();
  __shared__ int s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  int mine = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) mine += in[i];
  atomicAdd(&s, mine);
  __syncthreads();
  if (threadIdx.x == 0) partial[blockIdx.x] = s;
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    int t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
    *total = t;
  }
}
__global__ void count_launch() {
  if (threadIdx.x == 0 && blockIdx.x == 0) atomicAdd(&launches_seen, 1);
}
__global__ void accumulate(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] += in[i];
}
__global__ void stamp(long long* out) { out[threadIdx.x] = clock64(); }
// A scan's period of three launches: sections scanned from the input, their sums scanned, the
// sums added back in place.
__global__ void scan_sections(const int* in, int* out, int* sums) {
  __shared__ int s[64];
  const int t = threadIdx.x, i = blockIdx.x * 64 + t;
  s[t] = in[i];
  __syncthreads();
  for (int d = 1; d < 64; d *= 2) {
    const int v = t >= d ? s[t - d] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  out[i] = s[t];
  if (t == 63) sums[blockIdx.x] = s[t];
}
__global__ void scan_sums(int* sums, int blocks) {
  if (threadIdx.x == 0)
    for (int b = 1; b < blocks; ++b) sums[b] += sums[b - 1];
}
__global__ void add_sums(int* out, const int* sums) {
  if (blockIdx.x > 0) out[blockIdx.x * 64 + threadIdx.x] += sums[blockIdx.x - 1];
}

unsigned long long replays() { return gpulab::emu::replayed_launches(); }

}  // namespace

TEST_CASE("a benchmark loop of identical launches replays and keeps its result", "[replay]") {
  const int n = 10000;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = 0.5f * i - 7.0f;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  const unsigned long long before = replays();
  for (int k = 0; k < 20; ++k) square<<<(n + 255) / 256, 256>>>(in, out, n);
  cudaDeviceSynchronize();
  CHECK(replays() - before >= 17);  // the first runs and the one recorded run; the rest replay
  std::vector<float> got(n);
  cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += got[i] != h[i] * h[i];
  CHECK(wrong == 0);

  // New input from the host: the next launches run on it.
  for (int i = 0; i < n; ++i) h[i] = 3.0f - i;
  cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  for (int k = 0; k < 5; ++k) square<<<(n + 255) / 256, 256>>>(in, out, n);
  cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
  wrong = 0;
  for (int i = 0; i < n; ++i) wrong += got[i] != h[i] * h[i];
  CHECK(wrong == 0);
  cudaFree(in);
  cudaFree(out);
}

TEST_CASE("sizes and factors passed as int or float are not taken for addresses: their loops replay", "[replay]") {
  // 70000 as an 8-byte word looks like an address; an int argument cannot be one (BlackScholes'
  // 4,000,000 options, a size above 65535 in every sample that times its kernel).
  const int n = 70000;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = 0.25f * (i % 1000);
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  cudaMemcpy(in, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  const unsigned long long before = replays();
  for (int k = 0; k < 12; ++k) scale_by<<<(n + 255) / 256, 256>>>(in, out, 3.0f, 40000, n);
  cudaDeviceSynchronize();
  CHECK(replays() - before >= 9);
  std::vector<float> got(n);
  cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += got[i] != h[i] * 3.0f + 40000;
  CHECK(wrong == 0);
  cudaFree(in);
  cudaFree(out);
}

TEST_CASE("a loop of identical cooperative launches replays and keeps its result", "[replay]") {
  const int n = 100000, blocks = 4;
  std::vector<int> h(n);
  long long expected = 0;
  for (int i = 0; i < n; ++i) expected += h[i] = i % 7 - 3;
  int *in, *partial, *total;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&partial, blocks * sizeof(int));
  cudaMalloc(&total, sizeof(int));
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  int count = n;
  void* args[] = {&in, &partial, &total, &count};
  const unsigned long long before = replays();
  for (int k = 0; k < 10; ++k) {
    REQUIRE(cudaLaunchCooperativeKernel((void*)grid_sum, dim3(blocks), dim3(128), args, 0, 0) == cudaSuccess);
  }
  int got = 0;
  cudaMemcpy(&got, total, sizeof(int), cudaMemcpyDeviceToHost);
  CHECK(replays() - before >= 7);
  CHECK(got == expected);
  cudaFree(in);
  cudaFree(partial);
  cudaFree(total);
}

TEST_CASE("a period of three launches (a multi-level scan) replays and keeps its result", "[replay]") {
  const int blocks = 32, n = blocks * 64;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = (i * 7) % 13 - 6;
  int *in, *out, *sums;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMalloc(&sums, blocks * sizeof(int));
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  const unsigned long long before = replays();
  for (int k = 0; k < 10; ++k) {
    scan_sections<<<blocks, 64>>>(in, out, sums);
    scan_sums<<<1, 32>>>(sums, blocks);
    add_sums<<<blocks, 64>>>(out, sums);
  }
  std::vector<int> got(n);
  cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
  CHECK(replays() - before >= 20);
  int sum = 0, wrong = 0;
  for (int i = 0; i < n; ++i) wrong += got[i] != (sum += h[i]);
  CHECK(wrong == 0);
  cudaFree(in);
  cudaFree(out);
  cudaFree(sums);
}

TEST_CASE("launches whose repeat would differ always run", "[replay]") {
  // A __device__ counter: the program's own variable is part of the state.
  int zero = 0;
  cudaMemcpyToSymbol(launches_seen, &zero, sizeof zero);
  for (int k = 0; k < 50; ++k) count_launch<<<1, 32>>>();
  int seen = 0;
  cudaMemcpyFromSymbol(&seen, launches_seen, sizeof seen);
  CHECK(seen == 50);

  // Accumulating in place: each launch finds other data.
  const int n = 1000;
  float *in, *out;
  cudaMalloc(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  std::vector<float> ones(n, 1.0f);
  cudaMemcpy(in, ones.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemset(out, 0, n * sizeof(float));
  for (int k = 0; k < 30; ++k) accumulate<<<4, 256>>>(in, out, n);
  std::vector<float> got(n);
  cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
  CHECK(got[0] == 30.0f);
  CHECK(got[n - 1] == 30.0f);
  cudaFree(in);
  cudaFree(out);

  // A clock read: every launch runs and reads a later time.
  long long* t;
  cudaMallocManaged(&t, 32 * sizeof(long long));
  stamp<<<1, 32>>>(t);
  cudaDeviceSynchronize();
  long long last = t[0];
  const unsigned long long before = replays();
  for (int k = 0; k < 5; ++k) {
    stamp<<<1, 32>>>(t);
    cudaDeviceSynchronize();
    CHECK(t[0] > last);
    last = t[0];
  }
  CHECK(replays() == before);
  cudaFree(t);
}

TEST_CASE("managed memory the host changes between identical launches is read afresh", "[replay]") {
  const int n = 512;
  float *in, *out;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMalloc(&out, n * sizeof(float));
  std::vector<float> got(n);
  for (int k = 0; k < 6; ++k) {
    for (int i = 0; i < n; ++i) in[i] = static_cast<float>(k + i);  // the host writes managed memory directly
    square<<<2, 256>>>(in, out, n);
    cudaMemcpy(got.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
    CHECK(got[5] == static_cast<float>((k + 5) * (k + 5)));
  }
  cudaFree(in);
  cudaFree(out);
}
