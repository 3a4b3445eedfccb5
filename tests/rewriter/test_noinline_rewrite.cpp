// Unit tests of the __noinline__ rewrite: nvcc's qualifier (in code and in a #define) becomes the GNU
// attribute; `__noinline__` inside an attribute list is GNU's own spelling and stays.
#include "rewrite_test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace gpulab::rewriter;
using namespace gpulab::rewriter::test;

TEST_CASE("__noinline__ qualifiers become __attribute__((noinline))", "[rewriter][noinline]") {
  const std::string out = rewrite_body(
      "__device__ __noinline__ int f(int x) { return x; }\n"
      "#define OUTLINED __device__ __noinline__\n"
      "OUTLINED int g(int x) { return x; }\n"
      "__device__ __attribute__((__noinline__)) int h(int x) { return x; }\n"
      "__device__ __attribute__((always_inline, __noinline__)) int j(int x) { return x; }\n");
  CHECK(out ==
        "__device__ __attribute__((noinline)) int f(int x) { return x; }\n"
        "#define OUTLINED __device__ __attribute__((noinline))\n"
        "OUTLINED int g(int x) { return x; }\n"
        "__device__ __attribute__((__noinline__)) int h(int x) { return x; }\n"
        "__device__ __attribute__((always_inline, __noinline__)) int j(int x) { return x; }\n");
}
