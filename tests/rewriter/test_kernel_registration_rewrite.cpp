// Unit tests of the kernel registration: a non-template kernel defined at namespace scope gets one
// registration after its closing brace, on the same line (so no line moves), whose cast names the
// kernel's parameters without their default values; templates, declarations, friends, class
// members, #define bodies, comments and strings get none.
#include "rewrite_test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace gpulab::rewriter::test;

namespace {
long count_of(const std::string& text, const std::string& needle) {
  long n = 0;
  for (std::size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) ++n;
  return n;
}
long registrations(const std::string& text) { return count_of(text, "::gpulab::emu::kernel_registration "); }
}  // namespace

TEST_CASE("a kernel is registered after its body, on the same line", "[rewriter][registration]") {
  const std::string src =
      "__global__ void scale(float* x,\n"
      "                      int n = 4) {\n"
      "  x[0] *= n;\n"
      "}\n"
      "int after;\n";
  const std::string out = rewrite_body(src);
  CHECK(out ==
        "__global__ void scale(float* x,\n"
        "                      int n = 4) {\n"
        "  x[0] *= n;\n"
        "}" +
            registration("scale", "float* x, int n", 4, 1) + "\nint after;\n");
  CHECK(count_newlines(out) == count_newlines(src));
}

TEST_CASE("qualified names, namespaces, launch bounds, extern \"C\" and overloads", "[rewriter][registration]") {
  CHECK(rewrite_body("namespace ns { __global__ void k(int a) {} }\n") ==
        "namespace ns { __global__ void k(int a) {}" + registration("k", "int a", 1, 42) + " }\n");
  CHECK(rewrite_body("__global__ void ns::k(int a) {}\n") ==
        "__global__ void ns::k(int a) {}" +
            std::string(" static const ::gpulab::emu::kernel_registration gpulab_kernel_registration_k_L1C31("
                        "static_cast<void (*)(int a)>(&ns::k), \"ns::k\");") +
            "\n");
  CHECK(rewrite_body("__global__ void __launch_bounds__(256, 2) k(const float* __restrict__ in) {}\n") ==
        "__global__ void __launch_bounds__(256, 2) k(const float* __restrict__ in) {}" +
            registration("k", "const float* __restrict__ in", 1, 76) + "\n");
  CHECK(registrations(rewrite_body("extern \"C\" __global__ void c_kernel() {}\n")) == 1);
  const std::string overloads = rewrite_body("__global__ void f(int* a) {}\n__global__ void f(float* a) {}\n");
  CHECK(count_of(overloads, "static_cast<void (*)(int* a)>(&f)") == 1);
  CHECK(count_of(overloads, "static_cast<void (*)(float* a)>(&f)") == 1);
  CHECK(count_of(overloads, "gpulab_kernel_registration_f_L1C28") == 1);
  CHECK(count_of(overloads, "gpulab_kernel_registration_f_L2C30") == 1);
}

TEST_CASE("templates, declarations, friends, members and non-kernels get no registration", "[rewriter][registration]") {
  const std::string src =
      "template <typename T, int N = (3 > 2)>\n"
      "__global__ void t(T* a) {}\n"
      "template <> __global__ void t<float, 1>(float* a) {}\n"
      "__global__ void declared(int n);\n"
      "__global__ void generic(auto x) {}\n"
      "struct S { friend __global__ void fr(int) {} };\n"
      "__device__ void helper(int* a) {}\n"
      "void host(int n) {}\n"
      "#define KERNEL(name) __global__ void name(int* a) {}\n"
      "// __global__ void commented(int a) {}\n"
      "const char* s = \"__global__ void quoted() {}\";\n";
  CHECK(rewrite_body(src) == src);
}

TEST_CASE("a kernel after a template one is still registered", "[rewriter][registration]") {
  const std::string src = "template <int B> __global__ void t(int* a) {}\n__global__ void plain(int* a) {}\n";
  const std::string out = rewrite_body(src);
  CHECK(registrations(out) == 1);
  CHECK(count_of(out, "(&plain)") == 1);
}
