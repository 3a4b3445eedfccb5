// Unit tests of the kernel-address rewrite: a kernel the program casts to an untyped pointer
// (`(void*)k`, `(void *)&ns::k<float, 4>`, `reinterpret_cast<const void*>(k)`) is wrapped in
// ::gpulab::emu::kernel_address, which registers it (template instantiations included), and the
// registration after a kernel's definition is kept when its body holds directives.
#include "rewrite_test_helpers.hpp"

#include <catch2/catch.hpp>

using namespace gpulab::rewriter;
using namespace gpulab::rewriter::test;

namespace {
bool has(const std::string& text, std::string_view needle) { return text.find(needle) != std::string::npos; }
}  // namespace

TEST_CASE("kernels cast to void* are wrapped in kernel_address", "[rewriter][kernel-address]") {
  const std::string out = rewrite_body(
      "template <int N> __global__ void tk(int* o) {}\n"
      "namespace ns { __global__ void k(float* a) {} }\n"
      "void launch(void** args) {\n"
      "  cudaLaunchKernel((void*)tk<4>, 1, 1, args);\n"
      "  cudaLaunchCooperativeKernel((void *) &ns::k, 1, 1, args);\n"
      "  const void* p = reinterpret_cast<const void*>(tk<(2 > 1) ? 8 : 1>);\n"
      "}\n");
  CHECK(has(out, "cudaLaunchKernel((void*)::gpulab::emu::kernel_address(tk<4>, \"tk<4>\"), 1, 1, args);"));
  CHECK(has(out, "(void *) ::gpulab::emu::kernel_address(&ns::k, \"ns::k\"), 1, 1, args);"));
  CHECK(has(out,
            "reinterpret_cast<const void*>(::gpulab::emu::kernel_address(tk<(2 > 1) ? 8 : 1>, "
            "\"tk<(2 > 1) ? 8 : 1>\"));"));
}

TEST_CASE("other casts to void* are left alone", "[rewriter][kernel-address]") {
  const std::string src =
      "__global__ void k(int* o) {}\n"
      "int* data;\n"
      "void* f();\n"
      "void g() {\n"
      "  void* a = (void*)data;\n"
      "  void* b = (void*)k_table[0];\n"
      "  void* c = (void*)f();\n"
      "  cudaMalloc((void**)&data, 4);\n"
      "}\n";
  const std::string out = rewrite_body(src);
  CHECK_FALSE(has(out, "kernel_address"));
}

TEST_CASE("a kernel declared in another file of the program is known through the options",
          "[rewriter][kernel-address]") {
  RewriteOptions options;
  options.kernel_names =
      program_kernel_names({"template <class T> __global__ void __launch_bounds__(256) sum(T* x);\n"});
  CHECK(options.kernel_names == std::set<std::string>{"sum"});
  const std::string out = rewrite_cuda_source("void f() { void* p = (void*)sum<float>; }\n", "test.cu", options);
  CHECK(has(out, "(void*)::gpulab::emu::kernel_address(sum<float>, \"sum<float>\")"));
}

TEST_CASE("a kernel whose body holds directives is still registered", "[rewriter][registration]") {
  const std::string out = rewrite_body(
      "__global__ void k(float* x) {\n"
      "#pragma unroll\n"
      "  for (int i = 0; i < 4; ++i) x[i] = 0;\n"
      "#if __CUDA_ARCH__ >= 700\n"
      "  x[4] = 1;\n"
      "#endif\n"
      "}\n");
  CHECK(has(out, "gpulab_kernel_registration_k_L7C1(static_cast<void (*)(float* x)>(&k), \"k\");"));
}
