// Unit tests of the inline-PTX rewrite: asm statements in function and #define bodies become a
// failing static_assert on the same line (lines after it keep their numbers); asm labels and
// top-level asm, text in comments and strings, and names merely containing "asm" stay as written.
#include "rewrite_test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace gpulab::rewriter::test;

namespace {
bool has_ptx_error(const std::string& text) {
  return text.find("static_assert(false, \"inline PTX (asm) cannot run on the emulator") != std::string::npos;
}
}  // namespace

TEST_CASE("asm volatile in a kernel becomes a static_assert on the same line", "[rewriter][asm]") {
  const std::string src =
      "__global__ void k(unsigned* out) {\n"
      "  unsigned lane;\n"
      "  asm volatile(\"mov.u32 %0, %%laneid;\"\n"
      "               : \"=r\"(lane));\n"
      "  out[0] = lane;\n"
      "}\n";
  const std::string out = rewrite_body(src);
  CHECK(has_ptx_error(out));
  CHECK(line_of(out, "static_assert") == 3);
  CHECK(line_of(out, "out[0] = lane;") == 5);
  CHECK(count_newlines(out) == count_newlines(src));
  CHECK(out.find("mov.u32") == std::string::npos);
}

TEST_CASE("asm, __asm__ __volatile__ and asm in a #define body are all reported", "[rewriter][asm]") {
  CHECK(has_ptx_error(rewrite_body("__device__ void f() { asm(\"exit;\"); }\n")));
  CHECK(has_ptx_error(rewrite_body("__device__ void f() { __asm__ __volatile__(\"bar.sync 0;\"); }\n")));
  const std::string macro = rewrite_body("#define LANE(r) asm(\"mov.u32 %0, %%laneid;\" \\\n : \"=r\"(r))\nint x;\n");
  CHECK(has_ptx_error(macro));
  CHECK(line_of(macro, "int x;") == 3);
}

TEST_CASE("asm labels, top-level asm, comments, strings and similar names are untouched", "[rewriter][asm]") {
  const std::string src =
      "int counter asm(\"my_counter\");\n"
      "asm(\".globl marker\");\n"
      "void g() {\n"
      "  // asm(\"nop\");\n"
      "  const char* s = \"asm(x)\";\n"
      "  int asm_count = 0;\n"
      "  my_asm(asm_count);\n"
      "}\n";
  CHECK(rewrite_body(src) == src);
}

TEST_CASE("an asm with an empty template (a compiler barrier) is left alone", "[rewriter][asm]") {
  const std::string src =
      "void host_loop(float* c) {\n"
      "  asm volatile(\"\" ::\"r\"(c) : \"memory\");\n"
      "  __asm__ __volatile__(\"\" ::: \"memory\");\n"
      "}\n";
  CHECK(rewrite_body(src) == src);
  CHECK(has_ptx_error(rewrite_body("void f() { asm volatile(\"nop\" ::: \"memory\"); }\n")));
}
