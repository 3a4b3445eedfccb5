// The region forms the rewriter writes (grader/rewriter/region_emit.hpp): what moves to block level,
// how values reach later regions, how a region's loop is written, and that the body as written
// stays behind the region form with its lines. (tests/emu/test_regions.cu runs such kernels.)
#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "rewrite_test_helpers.hpp"

using gpulab::rewriter::rewrite_cuda_source;

namespace {

std::string rewritten(const std::string& source) { return rewrite_cuda_source(source, "k.cu"); }

bool has(const std::string& text, const std::string& piece) { return text.find(piece) != std::string::npos; }

// The region form alone: from the kernel's `{` to the #line that precedes the body as written.
std::string region_form(const std::string& out) {
  const std::size_t begin = out.find("gpulab_rb.begin()");
  const std::size_t end = out.find("return; }", begin);
  REQUIRE(begin != std::string::npos);
  REQUIRE(end != std::string::npos);
  return out.substr(begin, end - begin);
}

}  // namespace

TEST_CASE("region forms: a tree reduction's rounds stop at the first thread with nothing to do",
          "[rewriter][regions]") {
  const std::string out = rewritten(
      "__global__ void tree(const float* in, float* out) {\n"
      "  __shared__ float partial[256];\n"
      "  const unsigned t = threadIdx.x;\n"
      "  partial[t] = in[blockIdx.x * 256 + t];\n"
      "  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {\n"
      "    __syncthreads();\n"
      "    if (t < stride) partial[t] += partial[t + stride];\n"
      "  }\n"
      "  if (t == 0) out[blockIdx.x] = partial[0];\n"
      "}\n");
  const std::string form = region_form(out);
  CHECK(has(form, "for (unsigned stride = blockDim.x / 2;stride > 0;stride >>= 1)"));  // once per block
  CHECK(has(form, "gpulab_rb.barrier();"));
  CHECK(has(form, "const unsigned t = gpulab_tid.x;"));  // recomputed in each region
  CHECK(has(form, "if (!(t < stride)) break;"));
  CHECK(has(form, "GPULAB_EMU_EACH_THREAD_UNROLLED(gpulab_rb)"));
  CHECK(!has(form, "__syncthreads"));
  // The body as written follows, at its own line, with the kernel's decision registered after it.
  CHECK(has(out, "#line 1 \"k.cu\"\n\n  auto& partial"));
  CHECK(has(out, "gpulab_region_note_L10C1(\"tree\", \"k.cu\", 1, 1, "));
}

TEST_CASE("region forms: a round's loop stops early only where the thread's index keeps its order",
          "[rewriter][regions]") {
  const auto round = [](const std::string& declaration, const std::string& condition) {
    return region_form(
        rewritten("__global__ void k(float* s) {\n"
                  "  " +
                  declaration +
                  "\n"
                  "  for (unsigned stride = 64; stride > 0; stride >>= 1) {\n"
                  "    __syncthreads();\n"
                  "    if (" +
                  condition +
                  ") s[threadIdx.x] += s[threadIdx.x + stride];\n"
                  "  }\n"
                  "}\n"));
  };
  CHECK(has(round("", "threadIdx.x < stride"), "if (!(gpulab_tid.x < stride)) break;"));
  CHECK(has(round("", "(int)threadIdx.x <= stride - 1"), "break;"));
  CHECK(has(round("", "static_cast<unsigned>(threadIdx.x) < stride"), "break;"));
  CHECK(has(round("const int t = threadIdx.x;", "t < stride"), "break;"));
  // A char or short wraps past 127 or 32767: a later thread may pass the test again.
  CHECK(!has(round("", "(char)threadIdx.x < stride"), "break;"));
  CHECK(!has(round("", "static_cast<short>(threadIdx.x) < stride"), "break;"));
  CHECK(!has(round("const char t = threadIdx.x;", "t < stride"), "break;"));
  // Not of the form `index < uniform`: every thread is visited.
  CHECK(!has(round("", "threadIdx.x < stride && s[0] > 0"), "break;"));
  CHECK(!has(round("", "threadIdx.x % 2 < stride"), "break;"));
  CHECK(!has(round("", "threadIdx.y < stride"), "break;"));
}

TEST_CASE("region forms: a round stops early where its value grows with the thread's index", "[rewriter][regions]") {
  const auto round = [](const std::string& body) {
    return region_form(
        rewritten("__global__ void k(float* s, int n) {\n  const int t = threadIdx.x;\n"
                  "  for (int stride = 1; stride <= 256; stride *= 2) {\n    __syncthreads();\n" +
                  body + "\n  }\n}\n"));
  };
  // A Brent-Kung round: its index grows with t while stride >= 0, which the loop checks as it runs.
  CHECK(has(round("const int index = (t + 1) * 2 * stride - 1;\nif (index < 512) s[index] += s[index - stride];"),
            "if (!(index < 512) && (index) >= 0 && (stride) >= 0) break;"));
  // Compared with an unsigned bound, a negative value is a large one: the loop stops only at a
  // thread whose value is >= 0 (here the condition holds for t from 40 to 49 only).
  CHECK(has(round("if (t - 40 < 10u) s[t] = 0;"), "if (!(t - 40 < 10u) && (t - 40) >= 0) break;"));
  CHECK(has(round("const int w = blockDim.x;\nif (t * w + 3 <= 512) s[t] = 0;"), "&& (w) >= 0) break;"));
  // Not followed: unsigned arithmetic (it wraps), a subtracted index, a division, a factor of unknown
  // type, a declaration before the test that divides or reads memory (a skipped thread would not).
  CHECK(!has(round("if (threadIdx.x - 40u < 10u) s[t] = 0;"), "break;"));
  CHECK(!has(round("if (40 - t < 10) s[t] = 0;"), "break;"));
  CHECK(!has(round("if (t / 2 < 10) s[t] = 0;"), "break;"));
  CHECK(!has(round("if (t * n < 10) s[t] = 0;"), "break;"));
  CHECK(!has(round("const int q = 100 / (t + 1);\nif (t < 10) s[t] = q;"), "break;"));
  CHECK(!has(round("const float v = s[t];\nif (t < 10) s[t] = v;"), "break;"));
  CHECK(!has(round("if (t < 10) s[t] = 0;\nelse s[t] = 1;"), "break;"));
}

TEST_CASE("region forms: what the program's other files declare", "[rewriter][regions]") {
  const std::string kernel =
      "#include \"helpers.cuh\"\n"
      "__global__ void k(int* s) {\n"
      "  for (int r = 0; r < ROUNDS; ++r) {\n"
      "    __syncthreads();\n"
      "    s[threadIdx.x] += r;\n"
      "  }\n"
      "  shuffle(s);\n"
      "}\n";
  const auto with = [&](const std::vector<std::string>& others) {
    std::vector<std::string_view> texts{kernel};
    for (const std::string& o : others) texts.push_back(o);
    gpulab::rewriter::RewriteOptions options;
    options.program_names = gpulab::rewriter::program_region_names(texts);
    return rewrite_cuda_source(kernel, "k.cu", options);
  };
  const std::string plain_shuffle = "__device__ void shuffle(int* s) { s[0] = 1; }\n";
  // Alone, the file's ROUNDS is unknown: one fiber per thread.
  CHECK(!has(rewritten(kernel), "RegionBlock"));
  CHECK(has(with({"#define ROUNDS 4\n" + plain_shuffle}), "RegionBlock"));
  CHECK(has(with({"constexpr int ROUNDS = 4;\n" + plain_shuffle}), "RegionBlock"));
  CHECK(!has(with({"#define ROUNDS rounds_now()\n" + plain_shuffle}), "RegionBlock"));
  // A helper of another file that synchronises, directly or through a third file's function.
  const std::string syncs = with({"#define ROUNDS 4\n__device__ void shuffle(int* s) { pause(); }\n",
                                  "__device__ void pause() { __syncthreads(); }\n"});
  CHECK(!has(syncs, "RegionBlock"));
  CHECK(has(syncs, "it calls shuffle on line 7, which synchronises"));
  // A name that one file makes a constant and another a variable is not known to be constant.
  CHECK(!has(with({"static const int ROUNDS = 4;\n" + plain_shuffle, "__device__ int ROUNDS;\n"}), "RegionBlock"));
}

TEST_CASE("region forms: uniform assignments move out of the loop, per-thread values get slots",
          "[rewriter][regions]") {
  const std::string form = region_form(
      rewritten("__global__ void scan(const float* in, float* out) {\n"
                "  __shared__ float buffer[2][256];\n"
                "  const int t = threadIdx.x;\n"
                "  int src = 0;\n"
                "  float mine = in[t];\n"
                "  buffer[src][t] = mine;\n"
                "  for (int stride = 1; stride < 256; stride *= 2) {\n"
                "    __syncthreads();\n"
                "    const int dst = 1 - src;\n"
                "    buffer[dst][t] = t >= stride ? buffer[src][t] + buffer[src][t - stride] : buffer[src][t];\n"
                "    src = dst;\n"
                "  }\n"
                "  out[t] = buffer[src][t] + mine;\n"
                "}\n"));
  CHECK(has(form, "int src = 0; "));  // before the first region's loop
  CHECK(has(form, "const int dst = 1 - src; GPULAB_EMU_EACH_THREAD"));
  CHECK(has(form, "src = dst; }"));  // after the round's loop, at the end of the for's body
  CHECK(has(form, "using gpulab_t_5 = float; gpulab_t_5* const gpulab_s_5 = gpulab_rb.storage<gpulab_t_5>();"));
  CHECK(has(form, "::new (::gpulab::emu::region_slot(gpulab_s_5 + gpulab_r)) gpulab_t_5(in[t]);"));
  CHECK(has(form, "[[maybe_unused]] gpulab_t_5& mine = gpulab_s_5[gpulab_r];"));
  CHECK(has(form, "::gpulab::emu::RegionScope"));
}

TEST_CASE("region forms: a thread's return after the last barrier, a barrier's count, a helper call",
          "[rewriter][regions]") {
  const std::string form =
      region_form(rewritten("__device__ int code(int v) { return v * 2 + threadIdx.y; }\n"
                            "__global__ void k(const int* in, int* out) {\n"
                            "  const int votes = __syncthreads_count(in[threadIdx.x] > 0);\n"
                            "  if (threadIdx.x >= votes) return;\n"
                            "  out[threadIdx.x] = code(votes);\n"
                            "}\n"));
  CHECK(has(form, "gpulab_p_0[gpulab_r] = static_cast<int>(in[gpulab_tid.x] > 0) != 0;"));
  CHECK(has(form, "const int gpulab_sync_0 = gpulab_rb.count(gpulab_p_0);"));
  CHECK(has(form, "const int votes = gpulab_sync_0;"));
  CHECK(has(form, "if (gpulab_tid.x >= votes) goto gpulab_done_1;"));
  CHECK(has(form, "gpulab_done_1:;"));
  CHECK(has(form, "GPULAB_EMU_EACH_THREAD_UNROLLED_WITH_CONTEXT(gpulab_rb)"));  // code() reads threadIdx
}

TEST_CASE("region forms: a #pragma before a region's statement goes with it", "[rewriter][regions]") {
  const std::string form =
      region_form(rewritten("__global__ void k(float* s) {\n"
                            "  __shared__ float t[64];\n"
                            "  t[threadIdx.x] = s[threadIdx.x];\n"
                            "  __syncthreads();\n"
                            "  float acc = 0;\n"
                            "#pragma unroll\n"
                            "  for (int i = 0; i < 4; ++i) acc += t[(threadIdx.x + i) % 64];\n"
                            "  s[threadIdx.x] = acc;\n"
                            "}\n"));
  CHECK(
      has(form, "#line 6 \"k.cu\"\n#pragma unroll\n  for (int i = 0; i < 4; ++i) acc += t[(gpulab_tid.x + i) % 64];"));
}

TEST_CASE("region forms: a kernel left to fibers keeps its body alone", "[rewriter][regions]") {
  const std::string out = rewritten(
      "__global__ void k(int* x) {\n"
      "  if (threadIdx.x < 16) __syncthreads();\n"
      "  x[threadIdx.x] = 1;\n"
      "}\n");
  CHECK(!has(out, "RegionBlock"));
  CHECK(has(out, "gpulab_region_note_L4C1(\"k\", \"k.cu\", 1, 2, \"the condition on line 2"));
}
