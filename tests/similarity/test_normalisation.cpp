// Normalisation: what a copier changes for free (names, literals, comments, layout, preprocessor
// lines) gives the same token stream and the same fingerprints; CUDA's own names and C++ keywords
// stay apart; any bytes are accepted.
#include <catch2/catch.hpp>

#include "similarity/class_comparison.hpp"
#include "similarity/normalised_tokens.hpp"

using namespace gpulab::similarity;

namespace {
std::vector<std::uint64_t> symbols(const std::string& source) {
  std::vector<std::uint64_t> s;
  for (const NormalisedToken& t : normalise(source)) s.push_back(t.symbol);
  return s;
}

const std::string kOriginal = R"(
// Sums a block with a tree in shared memory.
#define BLOCK 256
__global__ void tree(const float* in, float* out, int n) {
  __shared__ float partial[BLOCK];
  const unsigned int t = threadIdx.x;
  const unsigned int i = blockIdx.x * blockDim.x + t;
  partial[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, partial[0]);
}
)";

// The same code with every chosen name renamed, other literals, other comments and layout.
const std::string kRenamed = R"(
#define THREADS 512   /* a different macro */
__global__ void   blockSum( const float *src, float *dst, int count )
{
    __shared__ float acc[ THREADS ];   // scratch
    const unsigned int me = threadIdx.x;
    const unsigned int g = blockIdx.x*blockDim.x+me;
    acc[me] = g < count ? src[g] : 0.0;
    __syncthreads();
    for (unsigned int half = blockDim.x / 4; half > 1; half /= 3)
    {
        if (me < half) acc[me] += acc[me + half];
        __syncthreads();
    }
    if (me == 7) atomicAdd(dst, acc[1]);
}
)";
}  // namespace

TEST_CASE("renamed identifiers, other literals, comments and layout give the same tokens and fingerprints",
          "[similarity]") {
  REQUIRE(symbols(kOriginal).size() > 50);
  CHECK(symbols(kOriginal) == symbols(kRenamed));
  const SimilarityOptions o;
  const auto a = distinct_fingerprints(kOriginal, o), b = distinct_fingerprints(kRenamed, o);
  REQUIRE(!a.empty());
  CHECK(a == b);
}

TEST_CASE("CUDA's names, keywords and operators keep their identity", "[similarity]") {
  CHECK(symbols("x = threadIdx.x;") != symbols("x = threadIdx.y;"));
  CHECK(symbols("atomicAdd(p, v);") != symbols("atomicSub(p, v);"));
  CHECK(symbols("__syncthreads();") != symbols("__syncwarp();"));
  CHECK(symbols("for (;;) {}") != symbols("while (;;) {}"));
  CHECK(symbols("a += b;") != symbols("a -= b;"));
  CHECK(symbols("float x;") != symbols("int x;"));
  // Names the student chose fold together, and so do literals of one kind, but kinds stay apart.
  CHECK(symbols("alpha(beta);") == symbols("gamma(delta);"));
  CHECK(symbols("x = 1;") == symbols("x = 0x7fu;"));
  CHECK(symbols("x = \"a\";") == symbols("x = \"bcd\";"));
  CHECK(symbols("x = 1;") != symbols("x = \"1\";"));
  CHECK(symbols("x = 1;") != symbols("x = y;"));
  CHECK(is_fixed_name("threadIdx"));
  CHECK(is_fixed_name("__shfl_down_sync"));
  CHECK(is_fixed_name("cudaMalloc"));
  CHECK(!is_fixed_name("partial"));
}

TEST_CASE("comments, whitespace and preprocessor lines are not tokens", "[similarity]") {
  CHECK(symbols("#include <cuda_runtime.h>\n#define N 4\n  // hello\n/* block */").empty());
  CHECK(symbols("a=b;") == symbols("  a /* x */ =\n\tb ; // y"));
}

TEST_CASE("token positions point at the source bytes and lines", "[similarity]") {
  const std::string src = "int a;\n  float b;\n";
  const auto t = normalise(src);
  REQUIRE(t.size() == 6);
  CHECK(src.substr(t[3].begin, t[3].end - t[3].begin) == "float");
  CHECK(t[3].line == 2);
  CHECK(t[0].line == 1);
}

TEST_CASE("any bytes are accepted: invalid UTF-8, NUL bytes, unterminated literals", "[similarity]") {
  const std::string junk = std::string("int \xff\xfe = 1; \x80\x81 \"unterminated\n char c = '") +
                           std::string(1, '\0') + "\xc3\x28 /* open comment";
  const auto t = normalise(junk);
  CHECK(!t.empty());
  for (const NormalisedToken& x : t) CHECK(x.end <= junk.size());
  std::string binary;
  for (int i = 0; i < 4096; ++i) binary += static_cast<char>((i * 131 + 7) & 0xff);
  CHECK_NOTHROW(distinct_fingerprints(binary, SimilarityOptions{}));
  CHECK(normalise("").empty());
}
