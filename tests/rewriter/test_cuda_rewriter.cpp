// Unit tests of rewrite_cuda_source: exact output of kernel launch and __shared__ rewrites, text that
// must stay untouched, line preservation, and the errors (with line/column) for malformed input.
#include "rewrite_test_helpers.hpp"

#include <catch2/catch.hpp>

using gpulab::rewriter::rewrite_cuda_source;
using gpulab::rewriter::RewriteError;
using namespace gpulab::rewriter::test;

namespace {

// Runs the rewriter expecting a RewriteError; returns it for inspection.
RewriteError rewrite_error(std::string_view source) {
  try {
    rewrite_cuda_source(source, "test.cu");
  } catch (const RewriteError& e) {
    return e;
  }
  FAIL("expected a RewriteError for:\n" << source);
  throw;  // unreachable
}

}  // namespace

// ---------------------------------------------------------------------------------------------------
// Output header
// ---------------------------------------------------------------------------------------------------

TEST_CASE("output starts with a #line directive naming the file", "[rewriter][line]") {
  CHECK(rewrite_cuda_source("int x;\n", "vec_add.cu") == "#line 1 \"vec_add.cu\"\nint x;\n");
  CHECK(rewrite_cuda_source("", "a.cu") == "#line 1 \"a.cu\"\n");
}

TEST_CASE("the file name in #line is escaped for a string literal", "[rewriter][line]") {
  CHECK(rewrite_cuda_source("x\n", R"(C:\labs\"lab 1".cu)") == "#line 1 \"C:\\\\labs\\\\\\\"lab 1\\\".cu\"\nx\n");
}

TEST_CASE("source without launches or shared memory is unchanged", "[rewriter][untouched]") {
  const std::string src = "#include <cstdio>\nint main() {\n  std::printf(\"hi\\n\");\n  return 0;\n}\n";
  CHECK(rewrite_body(src) == src);
}

TEST_CASE("a UTF-8 byte order mark is dropped", "[rewriter][line]") {
  CHECK(rewrite_cuda_source("\xEF\xBB\xBFint x;\n", "a.cu") == "#line 1 \"a.cu\"\nint x;\n");
}

// ---------------------------------------------------------------------------------------------------
// Kernel launches
// ---------------------------------------------------------------------------------------------------

TEST_CASE("plain launch", "[rewriter][launch]") {
  CHECK(rewrite_body("    vec_add<<<blocks, threads>>>(a, b, c, n);\n") ==
        "    ::gpulab::emu::launcher(\"vec_add\", __LINE__, blocks, threads).run([=](auto... gpulab_a) { "
        "vec_add(gpulab_a...); }, a, b, c, n);\n");
}

TEST_CASE("launch with shared memory size and with stream", "[rewriter][launch]") {
  CHECK(rewrite_body("k<<<g, b, smem>>>(x);") == launch("k", "g, b, smem", "x") + ";");
  CHECK(rewrite_body("k<<<g, b, 256 * sizeof(float), stream>>>(x, y);") ==
        launch("k", "g, b, 256 * sizeof(float), stream", "x, y") + ";");
}

TEST_CASE("launch without arguments", "[rewriter][launch]") {
  CHECK(rewrite_body("hello<<<1, 1>>>();") ==
        "::gpulab::emu::launcher(\"hello\", __LINE__, 1, 1).run([=](auto... gpulab_a) { hello(gpulab_a...); });");
  CHECK(rewrite_body("hello<<<1, 1>>>( /* none */ );") == launch("hello", "1, 1") + ";");
}

TEST_CASE("whitespace around configuration and arguments is tidied on one line", "[rewriter][launch]") {
  CHECK(rewrite_body("k <<< g , b >>> ( x ) ;") == launch("k", "g , b", "x") + " ;");
}

TEST_CASE("template kernels", "[rewriter][launch][template]") {
  CHECK(rewrite_body("reduce<float, 256><<<g, 256>>>(in, out);") ==
        launch("reduce<float, 256>", "g, 256", "in, out") + ";");
  SECTION("closing '>>' of nested template arguments right before '<<<'") {
    CHECK(rewrite_body("k<T, vec<int>><<<g, b>>>(x);") == launch("k<T, vec<int>>", "g, b", "x") + ";");
    CHECK(rewrite_body("k<v<int>><<<1, 1>>>();") == launch("k<v<int>>", "1, 1") + ";");
  }
  SECTION("template arguments spread over lines are collapsed in the kernel text") {
    CHECK(rewrite_body("k<float,\n  4><<<1, 2>>>(p);") ==
          "::gpulab::emu::launcher(\"k<float, 4>\", __LINE__, \n       1, 2).run([=](auto... gpulab_a) { "
          "k<float, 4>(gpulab_a...); }, p);");
  }
  SECTION("template argument containing parentheses and '>'") {
    CHECK(rewrite_body("k<(N > 2)><<<1, 1>>>();") == launch("k<(N > 2)>", "1, 1") + ";");
  }
  SECTION("'k<int>><<<' is not a valid kernel expression") {
    const RewriteError e = rewrite_error("void f() {\n  k<int>><<<1, 1>>>();\n}\n");
    CHECK(e.line == 2);
    CHECK(e.column == 10);
    CHECK_THAT(e.what(), Catch::Contains("could not find the kernel"));
  }
}

TEST_CASE("qualified names, pointers and member kernels", "[rewriter][launch]") {
  CHECK(rewrite_body("ns::k<<<1, 2>>>(a);") == launch("ns::k", "1, 2", "a") + ";");
  CHECK(rewrite_body("x = 1; ::k<<<1, 2>>>(a);") == "x = 1; " + launch("::k", "1, 2", "a") + ";");
  CHECK(rewrite_body("a::b<int>::k<float><<<1, 2>>>(a);") == launch("a::b<int>::k<float>", "1, 2", "a") + ";");
  CHECK(rewrite_body("ns::template k<T><<<1, 2>>>(a);") == launch("ns::template k<T>", "1, 2", "a") + ";");
  CHECK(rewrite_body("(fp)<<<1, 2>>>(a);") == launch("(fp)", "1, 2", "a") + ";");
  CHECK(rewrite_body("(*fp)<<<1, 2>>>(a);") == launch("(*fp)", "1, 2", "a") + ";");
  CHECK(rewrite_body("kernels[i]<<<1, 2>>>(a);") == launch("kernels[i]", "1, 2", "a") + ";");
  CHECK(rewrite_body("return k<<<1, 2>>>(a);") == "return " + launch("k", "1, 2", "a") + ";");
}

TEST_CASE("configuration expressions", "[rewriter][launch][config]") {
  CHECK(rewrite_body("k<<<(n + 255) / 256, 256>>>(x, n);") == launch("k", "(n + 255) / 256, 256", "x, n") + ";");
  CHECK(rewrite_body("k<<<(x >> 1), b>>>(x);") == launch("k", "(x >> 1), b", "x") + ";");
  CHECK(rewrite_body("k<<<g, std::min<int>(a, b)>>>(x);") == launch("k", "g, std::min<int>(a, b)", "x") + ";");
  CHECK(rewrite_body("k<<<dim3(n / 16, n / 16), dim3(16, 16), 2 * sizeof(T)>>>(x);") ==
        launch("k", "dim3(n / 16, n / 16), dim3(16, 16), 2 * sizeof(T)", "x") + ";");
  CHECK(rewrite_body("k<<<g, b >> 1>>>(x);") == launch("k", "g, b >> 1", "x") + ";");
  CHECK(rewrite_body("k<<<g, v<int>>>>(x);") == launch("k", "g, v<int>", "x") + ";");
  CHECK(rewrite_body("k<<<a[i], b ? 1 : 2>>>(x);") == launch("k", "a[i], b ? 1 : 2", "x") + ";");
}

TEST_CASE("arguments containing strings, lambdas, ')' and '>>>'", "[rewriter][launch][args]") {
  CHECK(rewrite_body("k<<<1, 1>>>(\")>>>(\", [](int v) { return v >> 1; }, ')', f(a, (b)));") ==
        launch("k", "1, 1", "\")>>>(\", [](int v) { return v >> 1; }, ')', f(a, (b))") + ";");
  CHECK(rewrite_body("k<<<1, 1>>>(a /* ) */, b); // )") == launch("k", "1, 1", "a /* ) */, b") + "; // )");
  CHECK(rewrite_body("k<<<1, 1>>>(R\"(a)\", std::array<int, 2>{1, 2});") ==
        launch("k", "1, 1", "R\"(a)\", std::array<int, 2>{1, 2}") + ";");
}

TEST_CASE("multiple launches on one line", "[rewriter][launch]") {
  CHECK(rewrite_body("a<<<1, 2>>>(x); b<<<3, 4>>>(); c<float><<<5, 6, 7>>>(y, z);\n") ==
        launch("a", "1, 2", "x") + "; " + launch("b", "3, 4") + "; " + launch("c<float>", "5, 6, 7", "y, z") + ";\n");
}

TEST_CASE("launch inside a loop and a braceless if", "[rewriter][launch]") {
  CHECK(rewrite_body("for (int i = 0; i < 4; ++i) k<<<1, 1>>>(i);") ==
        "for (int i = 0; i < 4; ++i) " + launch("k", "1, 1", "i") + ";");
  CHECK(rewrite_body("if (n > 0) k<<<n, 1>>>(n); else j<<<1, 1>>>();") ==
        "if (n > 0) " + launch("k", "n, 1", "n") + "; else " + launch("j", "1, 1") + ";");
  CHECK(rewrite_body("while (go()) (fp)<<<1, 1>>>();") == "while (go()) " + launch("(fp)", "1, 1") + ";");
  CHECK(rewrite_body("if (ok) (fp)<<<1, 1>>>();") == "if (ok) " + launch("(fp)", "1, 1") + ";");
}

TEST_CASE("launch in a helper function template", "[rewriter][launch][template]") {
  const std::string src = "template <typename T>\nvoid run(T* p, int n) {\n  scale<T><<<n / 32, 32>>>(p, n);\n}\n";
  CHECK(rewrite_body(src) ==
        "template <typename T>\nvoid run(T* p, int n) {\n  " + launch("scale<T>", "n / 32, 32", "p, n") + ";\n}\n");
}

TEST_CASE("launch split over several lines keeps every line", "[rewriter][launch][line]") {
  SECTION("configuration and arguments over lines") {
    const std::string src = "void f() {\n  k<<<g,\n    b>>>(\n    a,\n    b);\n  int after = 1;\n}\n";
    const std::string out = rewrite_body(src);
    CHECK(out ==
          "void f() {\n  ::gpulab::emu::launcher(\"k\", __LINE__, g,\n    b).run([=](auto... gpulab_a) { "
          "k(gpulab_a...); }, \n    a,\n    b);\n  int after = 1;\n}\n");
    CHECK(count_newlines(out) == count_newlines(src));
    CHECK(line_of(out, "int after") == line_of(src, "int after"));
    CHECK(line_of(out, "__LINE__") == line_of(src, "k<<<"));
  }
  SECTION("text after a line break keeps its column") {
    const std::string src = "  reduce<float>\n      <<<g, b>>>(x,\n               y);";
    const std::string out = rewrite_body(src);
    CHECK(out ==
          "  ::gpulab::emu::launcher(\"reduce<float>\", __LINE__, \n         g, b).run([=](auto... gpulab_a) { "
          "reduce<float>(gpulab_a...); }, x,\n               y);");
  }
  SECTION("kernel name, configuration and arguments on separate lines") {
    const std::string src = "k\n<<<g, b>>>\n(a); int next;\n";
    const std::string out = rewrite_body(src);
    CHECK(out ==
          "::gpulab::emu::launcher(\"k\", __LINE__, \n   g, b\n).run([=](auto... gpulab_a) { "
          "k(gpulab_a...); }, a); int next;\n");
    CHECK(line_of(out, "int next") == 3);
  }
  SECTION("comments between the pieces are dropped but their line breaks stay") {
    const std::string src = "k /* a\n b */ <<<1, // grid\n 2>>>(x);\nint next;";
    const std::string out = rewrite_body(src);
    CHECK(out ==
          "::gpulab::emu::launcher(\"k\", __LINE__, \n         1, // grid\n 2).run([=](auto... gpulab_a) { "
          "k(gpulab_a...); }, x);\nint next;");
    CHECK(line_of(out, "int next") == 4);
  }
  SECTION("Windows line endings") {
    const std::string src = "k<<<1,\r\n 2>>>(a,\r\n b);\r\nint next;\r\n";
    const std::string out = rewrite_body(src);
    CHECK(out ==
          "::gpulab::emu::launcher(\"k\", __LINE__, 1,\r\n 2).run([=](auto... gpulab_a) { "
          "k(gpulab_a...); }, a,\r\n b);\r\nint next;\r\n");
  }
}

TEST_CASE("launch inside a #define", "[rewriter][launch][macro]") {
  SECTION("one line; a kernel that is a macro parameter is named with #") {
    CHECK(rewrite_body("#define LAUNCH(k) k<<<1,1>>>()\nLAUNCH(hello);\n") ==
          "#define LAUNCH(k) ::gpulab::emu::launcher(#k, __LINE__, 1,1).run([=](auto... gpulab_a) { "
          "k(gpulab_a...); })\nLAUNCH(hello);\n");
    CHECK(rewrite_body("#define RUN_HELLO hello<<<1, 1>>>()\n") ==
          "#define RUN_HELLO " + launch("hello", "1, 1") + "\n");
  }
  SECTION("continuation lines stay continuation lines") {
    const std::string src = "#define L(k, n) k \\\n  <<<(n + 255) / 256, \\\n  256>>>(n)\nint next;\n";
    const std::string out = rewrite_body(src);
    CHECK(out ==
          "#define L(k, n) ::gpulab::emu::launcher(#k, __LINE__, \\\n     (n + 255) / 256, \\\n  256)"
          ".run([=](auto... gpulab_a) { k(gpulab_a...); }, n)\nint next;\n");
    CHECK(line_of(out, "int next") == 4);
  }
  SECTION("a launch cannot continue past the end of the directive") {
    const RewriteError e = rewrite_error("#define L(k) k<<<1, 1\n>>>();\n");
    CHECK(e.line == 1);
    CHECK(e.column == 15);
  }
}

TEST_CASE("a launch nested in another launch's arguments is rewritten too", "[rewriter][launch]") {
  CHECK(rewrite_body("outer<<<1, 1>>>([&] { inner<<<2, 2>>>(x); });") ==
        launch("outer", "1, 1", "[&] { " + launch("inner", "2, 2", "x") + "; }") + ";");
}

TEST_CASE("'<<<' in comments, strings, chars and raw strings is not touched", "[rewriter][launch][untouched]") {
  const std::string src =
      "// k<<<1, 1>>>(a);\n"
      "/* k<<<1, 1>>>(a);\n   k2<<<1, 1>>>(b); */\n"
      "const char* s = \"k<<<1, 1>>>(a); \\\" k<<<2, 2>>>(b)\";\n"
      "char c = '<'; char d = '\\''; char e = '>';\n"
      "const char* r = R\"x(k<<<1, 1>>>(a); )\" )x\";\n"
      "const char* u = u8R\"(k<<<1,1>>>())\";\n"
      "auto w = L\"k<<<1,1>>>()\";\n"
      "// line comment continued \\\n k<<<1, 1>>>(a);\n";
  CHECK(rewrite_body(src) == src);
}

TEST_CASE("'<<<' in directives other than #define is not touched", "[rewriter][launch][untouched]") {
  const std::string src = "#error launch it as k<<<1, 1>>>\n#pragma message \"k<<<1,1>>>()\"\n#include <a<<<b>\n";
  CHECK(rewrite_body(src) == src);
}

TEST_CASE("code disabled with #if 0 is left alone", "[rewriter][untouched]") {
  const std::string src =
      "#if 0\n"
      "  broken<<<1, (;\n"
      "#if defined(X)\n"
      "  __shared__ int x = 0;\n"
      "#endif\n"
      "  k<<<1, 1>>>(old);\n"
      "#else\n"
      "  k<<<1, 1>>>(now);\n"
      "#endif\n"
      "#if false\n"
      "  k<<<1, 1>>>(never);\n"
      "#endif\n"
      "k<<<2, 2>>>();\n";
  CHECK(rewrite_body(src) ==
        "#if 0\n"
        "  broken<<<1, (;\n"
        "#if defined(X)\n"
        "  __shared__ int x = 0;\n"
        "#endif\n"
        "  k<<<1, 1>>>(old);\n"
        "#else\n"
        "  " +
            launch("k", "1, 1", "now") +
            ";\n"
            "#endif\n"
            "#if false\n"
            "  k<<<1, 1>>>(never);\n"
            "#endif\n" +
            launch("k", "2, 2") + ";\n");
}

TEST_CASE("shift operators and stream chains are not launches", "[rewriter][launch][untouched]") {
  const std::string src =
      "std::cout << x << y << std::endl;\n"
      "a = b << c; a <<= 2; a >>= 1; v = w >> 3;\n"
      "std::vector<std::vector<int>> vv;\n"
      "bool lt = a < b, le = a <= b; auto cmp = a <=> b;\n"
      "template <class T> friend std::ostream& operator<<<T>(std::ostream&, const Box<T>&);\n"
      "x = 1 << 3 << 2;\n";
  CHECK(rewrite_body(src) == src);
}

TEST_CASE("malformed launches are reported with their line and column", "[rewriter][launch][error]") {
  SECTION("no '>>>'") {
    const RewriteError e = rewrite_error("int main() {\n  int n = 4;\n  vec_add<<<1, n(a, b);\n}\n");
    CHECK(e.line == 3);
    CHECK(e.column == 10);
    CHECK(e.file_name == "test.cu");
    CHECK_THAT(e.what(), Catch::StartsWith("test.cu:3:10: error: kernel launch '<<<' at line 3"));
    CHECK_THAT(e.what(), Catch::Contains("has no matching '>>>': check the launch configuration"));
  }
  SECTION("no '>>>' before the end of the file") {
    const RewriteError e = rewrite_error("\n\n k<<<(1, 2");
    CHECK(e.line == 3);
    CHECK(e.column == 3);
  }
  SECTION("no '(' after '>>>'") {
    const RewriteError e = rewrite_error("void f() {\n  k<<<1, 1>>>;\n}\n");
    CHECK(e.line == 2);
    CHECK_THAT(e.description, Catch::Contains("expected '(' with the kernel's arguments"));
  }
  SECTION("unbalanced argument list") {
    const RewriteError e = rewrite_error("void f() {\n  k<<<1, 1>>>(a,\n   (b);\n}\n");
    CHECK(e.line == 2);
    CHECK(e.column == 14);
    CHECK_THAT(e.description, Catch::Contains("has no matching ')'"));
  }
  SECTION("empty configuration") {
    const RewriteError e = rewrite_error("k<<<>>>(a);");
    CHECK(e.line == 1);
    CHECK_THAT(e.description, Catch::Contains("empty launch configuration"));
  }
  SECTION("no kernel before '<<<'") {
    const RewriteError e = rewrite_error("void f() {\n  x = <<<1, 1>>>(a);\n}\n");
    CHECK(e.line == 2);
    CHECK(e.column == 7);
    CHECK_THAT(e.description, Catch::Contains("could not find the kernel to launch"));
  }
}

// ---------------------------------------------------------------------------------------------------
// Static __shared__ variables
// ---------------------------------------------------------------------------------------------------

namespace {
std::string in_kernel(std::string_view body) { return "__global__ void k() {\n" + std::string(body) + "\n}\n"; }
// in_kernel(body) as rewritten: the kernel's registration follows its closing brace.
std::string rewritten_kernel(std::string_view body) {
  const int close_line = 3 + static_cast<int>(count_newlines(body));
  return "__global__ void k() {\n" + std::string(body) + "\n}" + registration("k", "", close_line, 1) + "\n";
}
}  // namespace

TEST_CASE("__shared__ arrays and scalars in a kernel", "[rewriter][shared]") {
  CHECK(rewrite_body(in_kernel("  __shared__ float buf[256];")) ==
        rewritten_kernel("  auto& buf = ::gpulab::emu::shared_variable<float[256]>([]{});"));
  CHECK(rewrite_body(in_kernel("  __shared__ float tile[TILE][TILE];")) ==
        rewritten_kernel("  auto& tile = ::gpulab::emu::shared_variable<float[TILE][TILE]>([]{});"));
  CHECK(rewrite_body(in_kernel("  __shared__ int count;")) ==
        rewritten_kernel("  auto& count = ::gpulab::emu::shared_variable<int>([]{});"));
  CHECK(rewrite_body(in_kernel("  __shared__ float s[BLOCK * 2 + (N >> 1)];")) ==
        rewritten_kernel("  auto& s = ::gpulab::emu::shared_variable<float[BLOCK * 2 + (N >> 1)]>([]{});"));
}

TEST_CASE("__shared__ type qualifiers and spellings are kept", "[rewriter][shared]") {
  CHECK(rewrite_body(in_kernel("__shared__ volatile float v[32];")) ==
        rewritten_kernel("auto& v = ::gpulab::emu::shared_variable<volatile float[32]>([]{});"));
  CHECK(rewrite_body(in_kernel("__shared__ unsigned int u[8];")) ==
        rewritten_kernel("auto& u = ::gpulab::emu::shared_variable<unsigned int[8]>([]{});"));
  CHECK(rewrite_body(in_kernel("__shared__ T data[B];")) ==
        rewritten_kernel("auto& data = ::gpulab::emu::shared_variable<T[B]>([]{});"));
  CHECK(rewrite_body(in_kernel("__shared__ typename Foo<T>::Bar x[4];")) ==
        rewritten_kernel("auto& x = ::gpulab::emu::shared_variable<typename Foo<T>::Bar[4]>([]{});"));
  CHECK(rewrite_body(in_kernel("__shared__ std::pair<int, float> p[4];")) ==
        rewritten_kernel("auto& p = ::gpulab::emu::shared_variable<std::pair<int, float>[4]>([]{});"));
  CHECK(rewrite_body(in_kernel("__shared__ float* ptr;")) ==
        rewritten_kernel("auto& ptr = ::gpulab::emu::shared_variable<float*>([]{});"));
}

TEST_CASE("__shared__ after the type, with static, with alignment", "[rewriter][shared]") {
  CHECK(rewrite_body(in_kernel("float __shared__ x[4];")) ==
        rewritten_kernel("auto& x = ::gpulab::emu::shared_variable<float[4]>([]{});"));
  CHECK(rewrite_body(in_kernel("static __shared__ float x[4];")) ==
        rewritten_kernel("auto& x = ::gpulab::emu::shared_variable<float[4]>([]{});"));
  CHECK(rewrite_body(in_kernel("__shared__ __align__(16) float x[4];")) ==
        rewritten_kernel("auto& x = ::gpulab::emu::shared_variable<float[4]>([]{});"));
  CHECK(rewrite_body(in_kernel("__align__(8) __shared__ double d[2];")) ==
        rewritten_kernel("auto& d = ::gpulab::emu::shared_variable<double[2]>([]{});"));
  CHECK(rewrite_body(in_kernel("__shared__ alignas(32) unsigned char bytes[64];")) ==
        rewritten_kernel("auto& bytes = ::gpulab::emu::shared_variable<unsigned char[64]>([]{});"));
}

TEST_CASE("several declarators become several statements on the same line", "[rewriter][shared]") {
  CHECK(rewrite_body(in_kernel("  __shared__ float a[4], b[8];")) ==
        rewritten_kernel("  auto& a = ::gpulab::emu::shared_variable<float[4]>([]{}); "
                         "auto& b = ::gpulab::emu::shared_variable<float[8]>([]{});"));
  CHECK(rewrite_body(in_kernel("__shared__ int n, *p, m[2];")) ==
        rewritten_kernel("auto& n = ::gpulab::emu::shared_variable<int>([]{}); "
                         "auto& p = ::gpulab::emu::shared_variable<int *>([]{}); "
                         "auto& m = ::gpulab::emu::shared_variable<int[2]>([]{});"));
}

TEST_CASE("a __shared__ declaration over several lines keeps the line count", "[rewriter][shared][line]") {
  const std::string src = in_kernel("  __shared__ float\n      tile[16]\n      [16]; int after = 0;\n  int next;");
  const std::string out = rewrite_body(src);
  // The dropped text of the last line is blanked, so `int after` also keeps its column.
  CHECK(out == rewritten_kernel("  auto& tile = ::gpulab::emu::shared_variable<float[16][16]>([]{});\n\n" +
                                std::string(11, ' ') + " int after = 0;\n  int next;"));
  CHECK(line_of(out, "int after") == line_of(src, "int after"));
  CHECK(line_of(out, "int next") == line_of(src, "int next"));
}

TEST_CASE("__shared__ in nested blocks, lambdas, member functions and after labels", "[rewriter][shared][scope]") {
  CHECK(rewrite_body("__global__ void k() { if (x) { for (;;) { __shared__ int a; } } }") ==
        "__global__ void k() { if (x) { for (;;) { auto& a = ::gpulab::emu::shared_variable<int>([]{}); } } }");
  CHECK(rewrite_body("auto f = [] __device__ () { __shared__ int a; };") ==
        "auto f = [] __device__ () { auto& a = ::gpulab::emu::shared_variable<int>([]{}); };");
  CHECK(rewrite_body("struct S { __device__ void f() const { __shared__ int a; } };") ==
        "struct S { __device__ void f() const { auto& a = ::gpulab::emu::shared_variable<int>([]{}); } };");
  CHECK(rewrite_body("__global__ void k() { switch (x) { case 1: __shared__ int a; } }") ==
        "__global__ void k() { switch (x) { case 1: auto& a = ::gpulab::emu::shared_variable<int>([]{}); } }");
}

TEST_CASE("initialised __shared__ variables are rejected", "[rewriter][shared][error]") {
  SECTION("= initialiser") {
    const RewriteError e = rewrite_error("__global__ void k() {\n  __shared__ int x = 0;\n}\n");
    CHECK(e.line == 2);
    CHECK(e.column == 20);
    CHECK_THAT(e.description, Catch::Contains("'x'") && Catch::Contains("CUDA forbids initialising __shared__"));
  }
  SECTION("brace initialiser on a later declarator") {
    const RewriteError e = rewrite_error("__global__ void k() {\n\n  __shared__ int a[2], b{1};\n}\n");
    CHECK(e.line == 3);
    CHECK_THAT(e.description, Catch::Contains("'b'"));
  }
}

TEST_CASE("unparsable __shared__ declarations are rejected with advice", "[rewriter][shared][error]") {
  const RewriteError e = rewrite_error("__global__ void k() {\n  __shared__ void (*fp)(int);\n}\n");
  CHECK(e.line == 2);
  CHECK_THAT(e.description, Catch::Contains("__shared__ TYPE NAME"));
  const RewriteError e2 = rewrite_error("__global__ void k() {\n  __shared__ int x[4]\n}\n");
  CHECK(e2.line == 2);
  CHECK_THAT(e2.description, Catch::Contains("no terminating ';'"));
}

// ---------------------------------------------------------------------------------------------------
// extern __shared__ (dynamic shared memory) and namespace scope
// ---------------------------------------------------------------------------------------------------

TEST_CASE("extern __shared__ inside a function body", "[rewriter][extern]") {
  CHECK(rewrite_body(in_kernel("  extern __shared__ float sdata[];")) ==
        rewritten_kernel("  float* const sdata = ::gpulab::emu::dynamic_shared<float>();"));
  CHECK(rewrite_body(in_kernel("extern __shared__ volatile int v[];")) ==
        rewritten_kernel("volatile int* const v = ::gpulab::emu::dynamic_shared<volatile int>();"));
  CHECK(rewrite_body(in_kernel("extern __shared__ __align__(16) unsigned char smem[];")) ==
        rewritten_kernel("unsigned char* const smem = ::gpulab::emu::dynamic_shared<unsigned char>();"));
  CHECK(rewrite_body(in_kernel("extern __shared__ alignas(8) double d[];")) ==
        rewritten_kernel("double* const d = ::gpulab::emu::dynamic_shared<double>();"));
}

TEST_CASE("extern __shared__ in a template function", "[rewriter][extern][template]") {
  const std::string src =
      "template <typename T, int N>\n__global__ void reduce(T* out) {\n"
      "  extern __shared__ T sdata[];\n}\n";
  CHECK(rewrite_body(src) ==
        "template <typename T, int N>\n__global__ void reduce(T* out) {\n"
        "  T* const sdata = ::gpulab::emu::dynamic_shared<T>();\n}\n");
}

TEST_CASE("extern __shared__ at file and namespace scope", "[rewriter][extern][scope]") {
  CHECK(rewrite_body("extern __shared__ float sdata[];\n") ==
        "static ::gpulab::emu::dynamic_shared_array<float> sdata;\n");
  CHECK(rewrite_body("namespace lab { extern __shared__ int s[]; }\n") ==
        "namespace lab { static ::gpulab::emu::dynamic_shared_array<int> s; }\n");
  CHECK(rewrite_body("namespace a::b { inline namespace v1 { extern __shared__ char c[]; } }") ==
        "namespace a::b { inline namespace v1 { static ::gpulab::emu::dynamic_shared_array<char> c; } }");
  CHECK(rewrite_body("extern \"C\" {\nextern __shared__ unsigned char raw[];\n}\n") ==
        "extern \"C\" {\nstatic ::gpulab::emu::dynamic_shared_array<unsigned char> raw;\n}\n");
}

TEST_CASE("file/namespace scope vs function scope after other braces", "[rewriter][extern][scope]") {
  const std::string src =
      "int table[] = {1, 2};\n"
      "struct P { int x; float y; };\n"
      "template <class T> struct Box { T v; };\n"
      "enum class E : int { A, B };\n"
      "__constant__ float mask[3] = {1.f, 2.f, 3.f};\n"
      "struct S { S() : x{1} {} int x; };\n"
      "bool operator==(P a, P b) { return a.x == b.x; }\n"
      "extern __shared__ float at_file[];\n"
      "template <class T> __global__ void k(T* p) { extern __shared__ float in_fn[]; }\n"
      "extern __shared__ float at_file2[];\n";
  CHECK(rewrite_body(src) ==
        "int table[] = {1, 2};\n"
        "struct P { int x; float y; };\n"
        "template <class T> struct Box { T v; };\n"
        "enum class E : int { A, B };\n"
        "__constant__ float mask[3] = {1.f, 2.f, 3.f};\n"
        "struct S { S() : x{1} {} int x; };\n"
        "bool operator==(P a, P b) { return a.x == b.x; }\n"
        "static ::gpulab::emu::dynamic_shared_array<float> at_file;\n"
        "template <class T> __global__ void k(T* p) { float* const in_fn = ::gpulab::emu::dynamic_shared<float>(); }\n"
        "static ::gpulab::emu::dynamic_shared_array<float> at_file2;\n");
}

TEST_CASE("static __shared__ at file scope becomes a registered thread_local", "[rewriter][shared][scope]") {
  const std::string src =
      "__shared__ float tile[16];\nstatic __shared__ int counter;\n__device__ __shared__ float y[2];\n";
  const std::string reg = "static const ::gpulab::emu::namespace_shared_registration gpulab_shared_registration_";
  CHECK(rewrite_body(src) == "static thread_local float tile[16]; " + reg +
                                 "tile([]() -> void* { return &tile; }, sizeof(tile));\n"
                                 "static thread_local int counter; " +
                                 reg +
                                 "counter([]() -> void* { return &counter; }, sizeof(counter));\n"
                                 "static thread_local __device__ float y[2]; " +
                                 reg + "y([]() -> void* { return &y; }, sizeof(y));\n");
  CHECK_THROWS_AS(rewrite_body("namespace n { __shared__ int x = 0; }\n"), RewriteError);
}

TEST_CASE("__shared__ in comments, strings and #define bodies is untouched", "[rewriter][shared][untouched]") {
  const std::string src =
      "__global__ void k() {\n  // __shared__ int a;\n  const char* s = \"__shared__ int b;\";\n"
      "  /* extern __shared__ float c[]; */\n}\n#define SMEM __shared__ float d[4]\n";
  const std::string registered =
      src.substr(0, src.find("}\n#define") + 1) + registration("k", "", 5, 1) + src.substr(src.find("}\n#define") + 1);
  CHECK(rewrite_body(src) == registered);
}

TEST_CASE("extern __shared__ arrays need empty first brackets", "[rewriter][extern][error]") {
  const RewriteError e = rewrite_error("__global__ void k() {\n  extern __shared__ float s[64];\n}\n");
  CHECK(e.line == 2);
  CHECK(e.column == 27);
  CHECK_THAT(e.description, Catch::Contains("empty first brackets"));
  CHECK_THROWS_AS(rewrite_body("__global__ void k() { extern __shared__ float s[8][]; }\n"), RewriteError);
}

TEST_CASE("extern __shared__ in a function body a macro writes is the dynamic memory, other uses stay",
          "[rewriter][extern][define]") {
  // cuda-samples' cudasharedmem.h: one SharedMemory<T> specialisation per type, written by a macro.
  const std::string src =
      "#define SHARED_OF(t, n) \\\n  struct S_##n { __device__ t* get() { extern __shared__ t n[]; return n; } }\n"
      "SHARED_OF(int, s_int);\n";
  const std::string out = rewrite_body(src);
  CHECK(out.find("t* const n = ::gpulab::emu::dynamic_shared<t>(); return n;") != std::string::npos);
  CHECK(count_newlines(out) == count_newlines(src));
  CHECK(out.find("\\\n") != std::string::npos);  // the macro keeps its continuation
  // Outside a body the macro opens, or without its ';', a directive's __shared__ is left as written.
  for (const char* kept : {"#define SMEM extern __shared__ float d[]\n", "#define TILE __shared__ float t[4];\n",
                           "#define X(n) extern __shared__ int n[];\n"}) {
    CHECK(rewrite_body(kept) == kept);
  }
}

TEST_CASE("extern __shared__ arrays of rows, T name[][N], point to rows of the dynamic memory", "[rewriter][extern]") {
  // As cuda-samples' tensor-core GEMMs write their tiles: the first dimension from the launch.
  const std::string out =
      rewrite_body("__global__ void k() { extern __shared__ half shmem[][CHUNK * K + SKEW]; shmem[1][2] = 0; }\n");
  CHECK(out.find("auto* const shmem = ::gpulab::emu::dynamic_shared<half[CHUNK * K + SKEW]>();") != std::string::npos);
  CHECK(rewrite_body("extern __shared__ float rows[][33][2];\n") ==
        "static ::gpulab::emu::dynamic_shared_array<float[33][2]> rows;\n");
}

// ---------------------------------------------------------------------------------------------------
// Both rewrites together
// ---------------------------------------------------------------------------------------------------

TEST_CASE("shared memory and launches in one file keep all line numbers", "[rewriter][line]") {
  const std::string src =
      "#include <cstdio>\n"
      "template <int B>\n"
      "__global__ void sum(const float* in, float* out) {\n"
      "    __shared__ float partial[B],\n"
      "                     extra[B];\n"
      "    extern __shared__ float dyn[];\n"
      "    partial[threadIdx.x] = in[threadIdx.x];  // marker-1\n"
      "}\n"
      "int main() {\n"
      "    sum<128>\n"
      "        <<<dim3(4),\n"
      "           dim3(128),\n"
      "           128 * sizeof(float)>>>(\n"
      "            nullptr,\n"
      "            nullptr);  // marker-2\n"
      "    std::printf(\"done\\n\");  // marker-3\n"
      "}\n";
  const std::string out = rewrite_body(src);
  CHECK(count_newlines(out) == count_newlines(src));
  for (const char* marker : {"marker-1", "marker-2", "marker-3", "int main"}) {
    CAPTURE(marker);
    CHECK(line_of(out, marker) == line_of(src, marker));
  }
  CHECK(line_of(out, "dynamic_shared<float>") == line_of(src, "extern __shared__"));
  CHECK(line_of(out, "auto& extra") == line_of(src, "__shared__ float partial"));  // first line of the declaration
  CHECK(line_of(out, "__LINE__") == line_of(src, "sum<128>"));
  CHECK(line_of(out, "dim3(4)") == line_of(src, "dim3(4)"));
  CHECK(line_of(out, "128 * sizeof(float)") == line_of(src, "128 * sizeof(float)"));
}
