// The region transformation's decisions (grader/rewriter/region_analysis.hpp): which kernels run
// their blocks as regions between barriers, and, for each doubt, that the kernel keeps one fiber per
// thread with a reason that names the line.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "rewrite_test_helpers.hpp"

using namespace gpulab::rewriter;
using namespace gpulab::rewriter::test;

TEST_CASE("regions: barriers at top level and in uniform loops", "[rewriter][regions]") {
  const std::string tree =
      "constexpr int kBlock = 256;\n"
      "__global__ void tree(const float* in, float* out, int n) {\n"
      "  __shared__ float partial[kBlock];\n"
      "  const unsigned t = threadIdx.x;\n"
      "  const unsigned i = blockIdx.x * blockDim.x + t;\n"
      "  partial[t] = i < static_cast<unsigned>(n) ? in[i] : 0.0f;\n"
      "  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {\n"
      "    __syncthreads();\n"
      "    if (t < stride) partial[t] += partial[t + stride];\n"
      "  }\n"
      "  if (t == 0) out[blockIdx.x] = partial[0];\n"
      "}\n";
  CHECK(regions(tree));
  // A variable every thread assigns alike between barriers (src), and one that changes per thread
  // and lives across barriers (acc).
  const std::string scan =
      "#define BLOCK 256\n"
      "__global__ void scan(const float* in, float* out, int n) {\n"
      "  __shared__ float buffer[2][BLOCK];\n"
      "  const int t = threadIdx.x;\n"
      "  int src = 0;\n"
      "  float acc = in[blockIdx.x * BLOCK + t];\n"
      "  buffer[src][t] = acc;\n"
      "  for (int stride = 1; stride < BLOCK; stride *= 2) {\n"
      "    __syncthreads();\n"
      "    const int dst = 1 - src;\n"
      "    buffer[dst][t] = t >= stride ? buffer[src][t] + buffer[src][t - stride] : buffer[src][t];\n"
      "    acc += buffer[dst][t];\n"
      "    src = dst;\n"
      "  }\n"
      "  out[blockIdx.x * BLOCK + t] = buffer[src][t] + acc;\n"
      "}\n";
  CHECK(regions(scan));
  const std::string tiles =
      "template <int TILE>\n"
      "__global__ void mm(const float* a, const float* b, float* c, int n) {\n"
      "  __shared__ float ta[TILE][TILE], tb[TILE][TILE];\n"
      "  const int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;\n"
      "  float sum = 0;\n"
      "  for (int p = 0; p < (n + TILE - 1) / TILE; ++p) {\n"
      "    ta[threadIdx.y][threadIdx.x] = a[row * n + p * TILE + threadIdx.x];\n"
      "    tb[threadIdx.y][threadIdx.x] = b[(p * TILE + threadIdx.y) * n + col];\n"
      "    __syncthreads();\n"
      "    for (int q = 0; q < TILE; ++q) sum += ta[threadIdx.y][q] * tb[q][threadIdx.x];\n"
      "    __syncthreads();\n"
      "  }\n"
      "  if (row < n && col < n) c[row * n + col] = sum;\n"
      "}\n";
  CHECK(regions(tiles));
}

TEST_CASE("regions: early returns, counting barriers, lambdas and dynamic shared memory", "[rewriter][regions]") {
  // Every thread of a block returns together (blockIdx), or a thread returns after the last barrier.
  CHECK(
      regions("__global__ void k(int* out, int limit) {\n"
              "  __shared__ int s[64];\n"
              "  if (blockIdx.x >= limit) return;\n"
              "  s[threadIdx.x] = threadIdx.x;\n"
              "  __syncthreads();\n"
              "  if (threadIdx.x >= 32) return;\n"
              "  out[threadIdx.x] = s[63 - threadIdx.x];\n"
              "}\n"));
  CHECK(
      regions("__global__ void k(const int* in, int* out) {\n"
              "  const int votes = __syncthreads_count(in[threadIdx.x] > 0);\n"
              "  int any = 0;\n"
              "  any = __syncthreads_or(in[threadIdx.x] < 0);\n"
              "  out[threadIdx.x] = votes + any;\n"
              "}\n"));
  CHECK(
      regions("#include <cooperative_groups.h>\n"
              "__global__ void k(int* x) {\n"
              "  cooperative_groups::thread_block cta = cooperative_groups::this_thread_block();\n"
              "  x[cta.thread_rank()] = 1;\n"
              "  cooperative_groups::sync(cta);\n"
              "  x[cta.thread_rank()] += x[0];\n"
              "  cta.sync();\n"
              "}\n"));
  CHECK(
      regions("__global__ void k(const float* in, float* out, int n) {\n"
              "  extern __shared__ float tile[];\n"
              "  const int tid = threadIdx.x;\n"
              "  auto load = [&](int from) { tile[tid] = in[from + tid]; };\n"
              "  load(0);\n"
              "  __syncthreads();\n"
              "  out[tid] = tile[(tid + 1) % blockDim.x];\n"
              "  __syncthreads();\n"
              "  load(n);\n"
              "}\n"));
}

TEST_CASE("fibers: barriers that threads may not all reach, and what the regions do not model", "[rewriter][regions]") {
  struct Case {
    const char* source;
    const char* reason;  // a piece of the decision's reason
  };
  const Case cases[] = {
      {"__global__ void k(int* x) {\n  if (threadIdx.x < 16) {\n    __syncthreads();\n  }\n}\n",
       "the condition on line 2 holds a barrier but may differ between threads: it reads threadIdx"},
      {"__global__ void k(int* x) {\n  if (threadIdx.x >= 10) return;\n  x[threadIdx.x] = 1;\n  __syncthreads();\n}\n",
       "line 2"},
      {"__global__ void k(int* x, int n) {\n  for (int i = threadIdx.x; i < n; i += blockDim.x) {\n"
       "    __syncthreads();\n  }\n}\n",
       "its variable 'i' does"},
      {"__global__ void k(volatile int* flag) {\n  while (flag[0] == 0) {\n    __syncthreads();\n  }\n}\n",
       "it reads memory"},
      {"__global__ void k(float* x) {\n  float v = x[threadIdx.x];\n  if (threadIdx.x < 32) v += "
       "__shfl_down_sync(0xffffffff, v, 1);\n"
       "  __syncthreads();\n  x[threadIdx.x] = v;\n}\n",
       "the condition on line 3 holds a barrier but may differ between threads"},
      {"__global__ void k(int* x) {\n  again:\n  __syncthreads();\n  if (x[0]) goto again;\n}\n", "goto"},
      {"__device__ void sync_all() { __syncthreads(); }\n__global__ void k(int* x) {\n  x[threadIdx.x] = 1;\n"
       "  sync_all();\n  x[threadIdx.x] += 1;\n}\n",
       "it calls sync_all on line 4, which synchronises"},
      {"__global__ void k(float* x) {\n  auto v = x[threadIdx.x] * 2;\n  __syncthreads();\n  x[threadIdx.x] = v;\n}\n",
       "'v' (line 2) is used again after a barrier and its type is deduced (auto)"},
      {"__global__ void k(int* x) {\n  __shared__ int n;\n  if (threadIdx.x == 0) n = x[0];\n  __syncthreads();\n"
       "  for (int i = 0; i < n; ++i) {\n    __syncthreads();\n  }\n}\n",
       "it reads 'n', which differs between threads"},
      {"#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n"
       "__global__ void k(int* x) {\n  cg::tiled_partition<32>(cg::this_thread_block()).sync();\n}\n",
       "tiled_partition on line 4"},
      {"__global__ void k(int* x) {\n  int v = x[threadIdx.x];\n  if (v > 0) __syncthreads();\n}\n",
       "may differ between threads"},
  };
  for (const Case& c : cases) {
    const std::string d = decision(c.source);
    INFO(c.source);
    INFO(d);
    CHECK(d.find(": fibers: ") != std::string::npos);
    CHECK(d.find(c.reason) != std::string::npos);
  }
}

TEST_CASE("plain calls: a kernel without barriers is left as it is", "[rewriter][regions]") {
  CHECK(decision("__global__ void add(const float* a, float* b, int n) {\n"
                 "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "  if (i < n) b[i] += a[i];\n"
                 "}\n") == "add: plain calls: no barriers: each thread runs as a plain call");
}
