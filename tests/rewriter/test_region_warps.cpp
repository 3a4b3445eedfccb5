// The region transformation's decisions for warp collectives (grader/rewriter/region_warps.cpp): a
// shuffle, vote or __syncwarp that every thread of the block reaches together runs in the region
// form, its value left by each thread before it and its result read after it; anything else keeps
// one fiber per thread, with a reason that names the line.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "rewrite_test_helpers.hpp"

using namespace gpulab::rewriter;
using namespace gpulab::rewriter::test;

TEST_CASE("regions: warp collectives every thread reaches together", "[rewriter][regions][warp]") {
  const std::string head =
      "#define FULL 0xffffffffu\n__global__ void k(const float* in, float* out, int n) {\n"
      "  float v = in[blockIdx.x * blockDim.x + threadIdx.x];\n";
  const char* bodies[] = {
      // a shuffle reduction's uniform loop (compound assignment)
      "  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(FULL, v, offset);\n"
      "  if (threadIdx.x % 32 == 0) out[threadIdx.x / 32] = v;\n",
      // declaration, assignment, widths, an if's whole condition, __syncwarp at top level
      "  const float w = __shfl_sync(FULL, v, 0, 16);\n  v = __shfl_up_sync(FULL, v, 1);\n"
      "  __syncwarp();\n  if (__any_sync(FULL, v > w)) out[threadIdx.x] = v;\n",
      // votes in a uniform while loop, a uniform mask variable, a uniform if around a collective
      "  const unsigned mask = FULL;\n  int round = 0;\n  while (round < n) {\n"
      "    unsigned b = __ballot_sync(mask, v > round);\n    if (n > 4) { v += __popc(b); }\n    ++round;\n  }\n"
      "  if (n > 2) { __syncwarp(mask); v = __shfl_xor_sync(mask, v, 1); }\n  out[threadIdx.x] = v;\n",
      // a collective's result as a subscripted lvalue's right-hand side, after a block barrier
      "  __syncthreads();\n  out[threadIdx.x] = __shfl_sync(FULL, v * 2.0f + out[0], threadIdx.x + 1);\n",
      // shifts and named casts in a value are not template calls
      "  const int t = threadIdx.x;\n  const int r = n;\n"
      "  v = __shfl_sync(FULL, static_cast<float>((t >> (r + 3)) & 1) + v, (t >> 1) << 1);\n  out[t] = v;\n",
  };
  for (const char* body : bodies) {
    const std::string source = head + body + "}\n";
    INFO(source);
    INFO(decision(source));
    CHECK(regions(source));
  }
}

TEST_CASE("fibers: warp collectives the region form does not run, and why", "[rewriter][regions][warp]") {
  struct Case {
    const char* source;
    const char* reason;
  };
  const Case cases[] = {
      {"__global__ void k(float* x) {\n  float v = x[threadIdx.x];\n  if (threadIdx.x < 32) {\n"
       "    v += __shfl_down_sync(0xffffffff, v, 1);\n  }\n  x[threadIdx.x] = v;\n}\n",
       "the condition on line 3 holds a barrier but may differ between threads: it reads threadIdx"},
      {"__device__ float warp_sum(float v) {\n  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, "
       "o);\n"
       "  return v;\n}\n__global__ void k(float* x) {\n  x[threadIdx.x] = warp_sum(x[threadIdx.x]);\n}\n",
       "it calls warp_sum on line 6, which synchronises"},
      {"__global__ void k(float* x) {\n  auto f = [&](float v) { return __shfl_sync(0xffffffff, v, 0); };\n"
       "  x[threadIdx.x] = f(x[threadIdx.x]);\n}\n",
       "the warp collective __shfl_sync on line 2 is in a lambda"},
      {"__global__ void k(float* x) {\n  float v = x[threadIdx.x];\n  int i = 0;\n"
       "  v = __shfl_sync(0xffffffff, v, i++);\n  x[threadIdx.x] = v;\n}\n",
       "an argument of __shfl_sync on line 4 is more than a value: it assigns"},
      {"__global__ void k(float* x) {\n  float v = x[threadIdx.x];\n"
       "  v = __shfl_sync(0xffffffff, v, __float2int_rn(v));\n  x[threadIdx.x] = v;\n}\n",
       "it calls __float2int_rn"},
      {"__global__ void k(float* x) {\n  const unsigned m = threadIdx.x < 16 ? 0xffffu : 0xffff0000u;\n"
       "  const unsigned b = __ballot_sync(m, x[threadIdx.x] > 0);\n  x[threadIdx.x] = b;\n}\n",
       "the mask of __ballot_sync on line 3 may differ between threads"},
      {"__global__ void k(float* x, int w) {\n  float v = x[threadIdx.x];\n  int width = static_cast<int>(v);\n"
       "  v = __shfl_sync(0xffffffff, v, 0, width);\n  x[threadIdx.x] = v;\n}\n",
       "the width of __shfl_sync on line 4 may differ between threads"},
      {"template <class T> __device__ T twice(T v) { return v + v; }\n__global__ void k(float* x) {\n"
       "  float v = x[threadIdx.x];\n  v = __shfl_sync(0xffffffff, twice<float>(v), 0);\n  x[threadIdx.x] = v;\n}\n",
       "an argument of __shfl_sync on line 4 is more than a value: it calls a template"},
      {"struct Pair { float a, b; };\n__device__ Pair __shfl_sync(unsigned m, Pair p, int l) { return p; }\n"
       "__global__ void k(Pair* x) {\n  Pair v = x[threadIdx.x];\n  v = __shfl_sync(0xffffffff, v, 0);\n"
       "  x[threadIdx.x] = v;\n}\n",
       "the program defines its own __shfl_sync"},
      {"__global__ void k(unsigned* x) {\n  x[threadIdx.x] = __activemask();\n}\n",
       "the warp collective __activemask on line 2 needs the warp's lanes"},
      {"__global__ void k(unsigned* x) {\n  x[threadIdx.x] = 1;\n  __barrier_sync_count(1, 64);\n}\n",
       "the named barrier __barrier_sync_count on line 3 synchronises part of the block"},
      {"__global__ void k(float* x) {\n  x[threadIdx.x] = 1.0f + __shfl_sync(0xffffffff, x[threadIdx.x], 0);\n}\n",
       "is part of an expression"},
      {"__global__ void k(float* x) {\n  float v = x[threadIdx.x];\n  for (int o = 1; o < 32; o *= 2) {\n"
       "    if (__any_sync(0xffffffff, v > o)) break;\n    v += 1.0f;\n  }\n  x[threadIdx.x] = v;\n}\n",
       "line 4"},
      {"#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void k(float* x) {\n"
       "  auto tile = cg::tiled_partition<32>(cg::this_thread_block());\n"
       "  x[threadIdx.x] = tile.shfl_down(x[threadIdx.x], 1);\n}\n",
       "tiled_partition on line 4"},
  };
  for (const Case& c : cases) {
    const std::string d = decision(c.source);
    INFO(c.source);
    INFO(d);
    CHECK(d.find(": fibers: ") != std::string::npos);
    CHECK(d.find(c.reason) != std::string::npos);
  }
}

TEST_CASE("region forms: a shuffle's value is left before it and its result read after it",
          "[rewriter][regions][warp]") {
  const std::string source =
      "__global__ void k(const double* in, double* out) {\n"
      "  double v = in[threadIdx.x];\n"
      "  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);\n"
      "  out[threadIdx.x] = v;\n}\n";
  const std::string out = gpulab::rewriter::rewrite_cuda_source(source, "k.cu");
  INFO(out);
  CHECK(out.find("gpulab_rb.begin(true)") != std::string::npos);  // whole warps only
  CHECK(out.find("::gpulab::emu::warp_bits(v)") != std::string::npos);
  CHECK(out.find("static_cast<int>(static_cast<unsigned>(offset))") != std::string::npos);  // a delta, as unsigned
  CHECK(out.find("gpulab_rb.warp(::gpulab::emu::WarpOp::shfl_down, static_cast<unsigned>(0xffffffffu), "
                 "static_cast<int>(32), gpulab_p_0, gpulab_l_0, gpulab_sync_0, \"k.cu\", 3);") != std::string::npos);
  CHECK(
      out.find("v += ::gpulab::emu::warp_value<decltype(::gpulab::emu::warp_deduced(v ))>(gpulab_sync_0[gpulab_r])") !=
      std::string::npos);
  // The body as written stays behind the region form for the fibers.
  CHECK(out.find("v += __shfl_down_sync(0xffffffffu, v, offset);") != std::string::npos);
}

TEST_CASE("region forms: a collective written over several lines keeps the lines after it",
          "[rewriter][regions][warp]") {
  const std::string source =
      "__global__ void k(int* out) {\n"
      "  int v = threadIdx.x;\n"
      "  v += __shfl_down_sync(0xffffffffu,\n"
      "                        v,\n"
      "                        1); out[threadIdx.x] = v;\n}\n";
  const std::string out = gpulab::rewriter::rewrite_cuda_source(source, "k.cu");
  INFO(out);
  // The call's two line breaks follow its result, so its `;` stays on line 5 of k.cu, column 27.
  CHECK(out.find("(gpulab_sync_0[gpulab_r])\n\n" + std::string(26, ' ') + ";") != std::string::npos);
}
