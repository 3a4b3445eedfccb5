// Conformance of kernels whose threads synchronise late or never (on the
// emulator such threads start as plain calls and only get a fiber of their
// own when they first wait): a barrier-free kernel over a 3-D grid of 3-D
// blocks; a kernel that reaches __syncthreads() only in its last iterations;
// one where half the block does long barrier-free work before the barrier
// the other half is already waiting at; and a warp shuffle reached after
// lane-dependent work. Results are exact integers checked against a CPU loop.
// Plain CUDA: it also builds with nvcc (with tests/catch_main.cpp) for a GPU.
#include <catch2/catch.hpp>
#include <vector>

namespace {

__global__ void index_everything(int* out, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  const int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < width && y < height) out[(z * height + y) * width + x] = x * 10000 + y * 100 + z;
}

// Iterations 0..5 are barrier-free; from iteration 6 on, neighbours exchange
// values through shared memory between two barriers.
__global__ void late_barrier(int* out, int iterations) {
  __shared__ int s[256];
  const int t = threadIdx.x;
  int v = t + blockIdx.x;
  for (int i = 0; i < iterations; ++i) {
    v = v * 3 % 1009 + i;
    if (i >= 6) {
      s[t] = v;
      __syncthreads();
      v += s[(t + 1) % blockDim.x];
      __syncthreads();
    }
  }
  out[blockIdx.x * blockDim.x + t] = v;
}

int late_barrier_expected(int block, int t, int threads, int iterations) {
  std::vector<int> v(threads);
  for (int k = 0; k < threads; ++k) v[k] = k + block;
  for (int i = 0; i < iterations; ++i) {
    for (int k = 0; k < threads; ++k) v[k] = v[k] * 3 % 1009 + i;
    if (i >= 6) {
      const std::vector<int> s = v;
      for (int k = 0; k < threads; ++k) v[k] += s[(k + 1) % threads];
    }
  }
  return v[t];
}

// The odd threads do a long loop first; the even ones go straight to the barrier.
__global__ void uneven_work_then_barrier(int* out) {
  __shared__ int s[128];
  const int t = threadIdx.x;
  int v = t;
  if (t % 2) {
    for (int i = 0; i < 1000 + t; ++i) v = (v * 7 + i) % 10007;
  }
  s[t] = v;
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = s[blockDim.x - 1 - t];
}

int uneven_value(int t) {
  int v = t;
  if (t % 2) {
    for (int i = 0; i < 1000 + t; ++i) v = (v * 7 + i) % 10007;
  }
  return v;
}

// Lanes with a larger index work longer before the shuffle every lane reaches.
__global__ void work_then_shuffle(int* out) {
  const int lane = threadIdx.x % 32;
  int v = lane;
  for (int i = 0; i < lane * 10; ++i) v = (v + i) % 101;
  const int from_next = __shfl_down_sync(0xffffffffu, v, 1);
  out[blockIdx.x * blockDim.x + threadIdx.x] = lane < 31 ? from_next : -1;
}

}  // namespace

TEST_CASE("fast path: a barrier-free kernel over a 3-D grid of 3-D blocks") {
  const int width = 70, height = 9, depth = 4;
  int* d;
  REQUIRE(cudaMalloc(&d, width * height * depth * sizeof(int)) == cudaSuccess);
  index_everything<<<dim3(3, 3, 2), dim3(32, 4, 2)>>>(d, width, height);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<int> h(width * height * depth);
  cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int z = 0; z < depth; ++z)
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) wrong += h[(z * height + y) * width + x] != x * 10000 + y * 100 + z;
  CHECK(wrong == 0);
  cudaFree(d);
}

TEST_CASE("fast path: __syncthreads() reached only in late iterations") {
  const int blocks = 3, threads = 256, iterations = 9;
  int* d;
  REQUIRE(cudaMalloc(&d, blocks * threads * sizeof(int)) == cudaSuccess);
  late_barrier<<<blocks, threads>>>(d, iterations);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<int> h(blocks * threads);
  cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t) wrong += h[b * threads + t] != late_barrier_expected(b, t, threads, iterations);
  CHECK(wrong == 0);
  cudaFree(d);
}

TEST_CASE("fast path: half the block works long before a barrier the other half waits at") {
  int* d;
  REQUIRE(cudaMalloc(&d, 2 * 128 * sizeof(int)) == cudaSuccess);
  uneven_work_then_barrier<<<2, 128>>>(d);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<int> h(2 * 128);
  cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost);
  for (int b = 0; b < 2; ++b)
    for (int t = 0; t < 128; ++t) CHECK(h[b * 128 + t] == uneven_value(127 - t));
  cudaFree(d);
}

TEST_CASE("fast path: a warp shuffle after lane-dependent work") {
  int* d;
  REQUIRE(cudaMalloc(&d, 96 * sizeof(int)) == cudaSuccess);
  work_then_shuffle<<<1, 96>>>(d);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  std::vector<int> h(96);
  cudaMemcpy(h.data(), d, h.size() * sizeof(int), cudaMemcpyDeviceToHost);
  for (int t = 0; t < 96; ++t) {
    const int lane = t % 32;
    if (lane == 31) {
      CHECK(h[t] == -1);
      continue;
    }
    int v = lane + 1;
    for (int i = 0; i < (lane + 1) * 10; ++i) v = (v + i) % 101;
    CHECK(h[t] == v);
  }
  cudaFree(d);
}
