// Unit tests of the `__CUDA_ARCH__` rewrite (arch_views): each piece of code is written as the nvcc
// pass that owns it reads it (kernels and device functions as the device pass, host functions as the
// host pass, __host__ __device__ functions both ways, chosen at run time), groups at namespace
// scope keep the device pass's device code and the host pass's host code, macros defined under
// such groups get a device name, and what cannot be compiled that way is refused with its line.
#include "rewrite_test_helpers.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

using namespace gpulab::rewriter;
using namespace gpulab::rewriter::test;

namespace {

std::string rewrite_with(std::string_view source, const RewriteOptions& options) {
  std::string out = rewrite_cuda_source(source, "test.cu", options);
  return out.rfind(header, 0) == 0 ? out.substr(header.size()) : "MISSING #line HEADER: " + out;
}

bool has(const std::string& text, std::string_view needle) { return text.find(needle) != std::string::npos; }

long count_of(const std::string& text, std::string_view needle) {
  long n = 0;
  for (std::size_t p = text.find(needle); p != std::string::npos; p = text.find(needle, p + 1)) ++n;
  return n;
}

// The message of the RewriteError rewriting `source` throws ("" when it throws none).
std::string refusal(std::string_view source) {
  try {
    rewrite_cuda_source(source, "test.cu");
  } catch (const RewriteError& e) {
    return e.what();
  }
  return "";
}

// Runs the project's compiler's preprocessor on the rewritten source with `defines` and returns the
// text (its lines, without line markers).
std::string preprocessed(std::string_view source, const std::string& defines) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("gpulab_arch_test_" + std::to_string(std::random_device{}()));
  std::filesystem::create_directories(dir);
  { std::ofstream(dir / "in.cpp") << rewrite_cuda_source(source, "test.cu"); }
  const std::string command = std::string(GPULAB_REWRITER_TEST_CXX) + " -E -P " + defines + " " +
                              (dir / "in.cpp").string() + " > " + (dir / "out.txt").string() + " 2>&1";
  const int status = std::system(command.c_str());
  std::ifstream in(dir / "out.txt");
  std::stringstream text;
  text << in.rdbuf();
  std::filesystem::remove_all(dir);
  return status == 0 ? text.str() : "PREPROCESSOR FAILED: " + text.str();
}

}  // namespace

TEST_CASE("a kernel's body is read as the device pass reads it, lines kept", "[rewriter][arch]") {
  const std::string src =
      "__global__ void k(int* o) {\n"
      "#if __CUDA_ARCH__ >= 700\n"
      "  *o = 42;\n"
      "#else\n"
      "  *o = -1;\n"
      "#endif\n"
      "}\n";
  const std::string out = rewrite_body(src);
  CHECK(has(out, "*o = 42;"));
  CHECK_FALSE(has(out, "*o = -1;"));
  CHECK_FALSE(has(out, "#if"));
  CHECK(count_newlines(out) == count_newlines(src));
  CHECK(line_of(out, "*o = 42;") == 3);
}

TEST_CASE("#ifdef, #ifndef, defined() and arithmetic comparisons in device code", "[rewriter][arch]") {
  const std::string src =
      "__device__ int f() {\n"
      "  int r = 0;\n"
      "#ifdef __CUDA_ARCH__\n"
      "  r += 1;\n"
      "#endif\n"
      "#ifndef __CUDA_ARCH__\n"
      "  r += 1000;\n"
      "#endif\n"
      "#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ / 100 == 9)\n"
      "  r += 10;\n"
      "#elif defined __CUDA_ARCH__\n"
      "  r += 2000;\n"
      "#endif\n"
      "#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ < 800\n"
      "  r += 3000;\n"
      "#else\n"
      "  r += 100;\n"
      "#endif\n"
      "  return r;\n"
      "}\n";
  const std::string out = rewrite_body(src);
  CHECK(has(out, "r += 1;"));
  CHECK(has(out, "r += 10;"));
  CHECK(has(out, "r += 100;"));
  CHECK_FALSE(has(out, "r += 1000;"));
  CHECK_FALSE(has(out, "r += 2000;"));
  CHECK_FALSE(has(out, "r += 3000;"));
  CHECK(count_newlines(out) == count_newlines(src));
}

TEST_CASE("a __host__ __device__ function is written twice and picks its reading at run time", "[rewriter][arch]") {
  const std::string src =
      "__host__ __device__ int sees_arch() {\n"
      "#ifdef __CUDA_ARCH__\n"
      "  return 1;\n"
      "#else\n"
      "  return 0;\n"
      "#endif\n"
      "}\n"
      "int after;\n";
  const std::string out = rewrite_body(src);
  CHECK(has(out, "{ if (::gpulab::emu::in_device_code()) {"));
  CHECK(has(out, " } else {\n#line 1 \"test.cu\"\n"));
  CHECK(out.find("return 1;") < out.find("return 0;"));
  // After the two readings the source's lines continue with their own numbers.
  CHECK(has(out, " }}\nint after;"));
  // The compiler's view of the lines: `return 0;` is line 5 of test.cu, `int after;` line 8.
  const std::string pre = preprocessed(src, "-D__CUDA_ARCH_ZERO");
  CHECK(has(pre, "return 1;"));
  CHECK(has(pre, "return 0;"));
}

TEST_CASE("a host function (__host__ alone) is read as the host pass reads it", "[rewriter][arch]") {
  const std::string out = rewrite_body(
      "__host__ int where() {\n"
      "#ifdef __CUDA_ARCH__\n"
      "  return 1;\n"
      "#else\n"
      "  return 0;\n"
      "#endif\n"
      "}\n");
  CHECK(has(out, "return 0;"));
  CHECK_FALSE(has(out, "return 1;"));
  CHECK_FALSE(has(out, "in_device_code"));
}

TEST_CASE("a function whose qualifiers cannot be seen gets both readings, main is host code", "[rewriter][arch]") {
  const std::string out = rewrite_body(
      "#define HD __host__ __device__\n"
      "HD int lane() {\n"
      "#ifdef __CUDA_ARCH__\n"
      "  return 1;\n"
      "#endif\n"
      "  return 0;\n"
      "}\n"
      "int main() {\n"
      "#ifndef __CUDA_ARCH__\n"
      "  return 7;\n"
      "#endif\n"
      "}\n");
  CHECK(count_of(out, "in_device_code") == 1);
  CHECK(has(out, "return 7;"));
}

TEST_CASE("__CUDA_ARCH__ in code is its value only where the host pass cannot see it", "[rewriter][arch]") {
  const std::string out = rewrite_body(
      "__global__ void k(int* o) {\n"
      "#ifdef __CUDA_ARCH__\n"
      "  o[0] = __CUDA_ARCH__;\n"
      "#endif\n"
      "  o[1] = __CUDA_ARCH__;\n"
      "}\n");
  CHECK(has(out, "o[0] = 900;"));
  // nvcc's host pass parses kernel bodies too and rejects this one: so does the emulator's compile.
  CHECK(has(out, "o[1] = __CUDA_ARCH__;"));
}

TEST_CASE("the architecture comes from the options", "[rewriter][arch]") {
  RewriteOptions sm80;
  sm80.cuda_arch = 800;
  const std::string out = rewrite_with(
      "__global__ void k(int* o) {\n"
      "#if __CUDA_ARCH__ >= 900\n"
      "  *o = 9;\n"
      "#elif __CUDA_ARCH__ >= 800\n"
      "  *o = 8;\n"
      "#endif\n"
      "}\n",
      sm80);
  CHECK(has(out, "*o = 8;"));
  CHECK_FALSE(has(out, "*o = 9;"));
  CHECK(cuda_arch_value("sm_90") == 900);
  CHECK(cuda_arch_value("sm_90a") == 900);
  CHECK(cuda_arch_value("compute_80") == 800);
  CHECK(cuda_arch_value("sm_100") == 1000);
  CHECK(cuda_arch_value("86") == 860);
  CHECK_THROWS_AS(cuda_arch_value("hopper"), std::invalid_argument);
}

TEST_CASE("namespace scope: device functions under a guard, host code under #ifndef", "[rewriter][arch]") {
  const std::string src =
      "#if __CUDA_ARCH__ >= 700\n"
      "__device__ int volta() { return 7; }\n"
      "#endif\n"
      "#ifndef __CUDA_ARCH__\n"
      "#include <cstdio>\n"
      "static void host_only() {}\n"
      "__global__ void never_run_kernel() {}\n"
      "#endif\n"
      "int after;\n";
  const std::string out = rewrite_body(src);
  CHECK(has(out, "__device__ int volta() { return 7; }"));
  CHECK(has(out, "#include <cstdio>"));
  CHECK(has(out, "static void host_only() {}"));
  // A kernel only the host pass sees is never run by it: gone.
  CHECK_FALSE(has(out, "never_run_kernel"));
  CHECK(count_newlines(out) == count_newlines(src));
  CHECK(line_of(out, "int after;") == 9);
}

TEST_CASE("namespace scope: each pass's version of a kernel and of a host helper", "[rewriter][arch]") {
  const std::string out = rewrite_body(
      "#if __CUDA_ARCH__ >= 800\n"
      "__global__ void by_arch(int* o) { *o = 800; }\n"
      "#else\n"
      "__global__ void by_arch(int* o) { *o = -1; }\n"
      "#endif\n"
      "#ifndef __CUDA_ARCH__\n"
      "static const char* side() { return \"host\"; }\n"
      "#else\n"
      "static const char* side() { return \"device\"; }\n"
      "#endif\n");
  CHECK(count_of(out, "by_arch(int* o)") == 1);
  CHECK(has(out, "*o = 800;"));
  CHECK(count_of(out, "side()") == 1);
  CHECK(has(out, "return \"host\";"));
}

TEST_CASE("a group both passes read alike is resolved: the polyfill for old GPUs goes", "[rewriter][arch]") {
  const std::string src =
      "#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600\n"
      "#else\n"
      "__device__ double atomicAdd(double* a, double v) { return v; }\n"
      "#endif\n"
      "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600\n"
      "__device__ double atomicAdd(double* a, double v) { return v; }\n"
      "#endif\n";
  const std::string out = rewrite_body(src);
  CHECK_FALSE(has(out, "atomicAdd"));
  CHECK(count_newlines(out) == count_newlines(src));
}

TEST_CASE("a macro defined under a guard gets a device name, which device code uses", "[rewriter][arch]") {
  const std::string src =
      "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900\n"
      "#define HOPPER 1\n"
      "#else\n"
      "#define HOPPER 0\n"
      "#endif\n"
      "#define IS_NEW (HOPPER && 1)\n"
      "__global__ void k(int* o) { o[0] = HOPPER; o[1] = IS_NEW;\n"
      "#if HOPPER\n"
      "  o[2] = 1;\n"
      "#endif\n"
      "}\n"
      "__host__ int host_value() { return HOPPER; }\n";
  const std::string out = rewrite_body(src);
  CHECK(has(out, "#define gpulab_device_HOPPER 1"));
  CHECK(has(out, "#define HOPPER 0"));
  CHECK_FALSE(has(out, "#define HOPPER 1"));
  // IS_NEW names HOPPER, so it depends on __CUDA_ARCH__ too: both versions.
  CHECK(has(out, "#define IS_NEW (HOPPER && 1)"));
  CHECK(has(out, "#define gpulab_device_IS_NEW (gpulab_device_HOPPER && 1)"));
  CHECK(has(out, "o[0] = gpulab_device_HOPPER; o[1] = gpulab_device_IS_NEW;"));
  CHECK(has(out, "#if gpulab_device_HOPPER"));
  CHECK(has(out, "return HOPPER;"));
  // What the compiler makes of it: the kernel sees 1 and its #if, the host function 0.
  const std::string pre = preprocessed(src, "");
  CHECK(has(pre, "o[0] = 1; o[1] = (1 && 1);"));
  CHECK(has(pre, "o[2] = 1;"));
  CHECK(has(pre, "return 0;"));
}

TEST_CASE("a macro from another file of the program is known through the options", "[rewriter][arch]") {
  const std::set<std::string> macros = program_arch_macros({"#if __CUDA_ARCH__ >= 800\n#define HAS_ASYNC 1\n#endif\n"});
  CHECK(macros == std::set<std::string>{"HAS_ASYNC"});
  RewriteOptions options;
  options.arch_macros = macros;
  const std::string out = rewrite_with(
      "__global__ void k(int* o) {\n"
      "#ifdef HAS_ASYNC\n"
      "  *o = 1;\n"
      "#endif\n"
      "}\n",
      options);
  CHECK(has(out, "#if defined(gpulab_device_HAS_ASYNC)"));
}

TEST_CASE("a condition on a macro only the compiler knows: one block per pair of branches", "[rewriter][arch]") {
  const std::string src =
      "#if __CUDA_ARCH__ >= 800 && defined(FAST)\n"
      "__global__ void k(int* o) { *o = 1; }\n"
      "#else\n"
      "__global__ void k(int* o) { *o = 2; }\n"
      "#endif\n"
      "int after;\n";
  const std::string out = rewrite_body(src);
  CHECK(count_of(out, "#if (") == 2);
  const std::string fast = preprocessed(src, "-DFAST");
  CHECK(has(fast, "*o = 1;"));
  CHECK_FALSE(has(fast, "*o = 2;"));
  const std::string slow = preprocessed(src, "");
  CHECK(has(slow, "*o = 2;"));
  CHECK_FALSE(has(slow, "*o = 1;"));
}

TEST_CASE("what the emulator cannot compile in one pass is refused with its line and why", "[rewriter][arch]") {
  // A group that begins in a function and ends after it.
  const std::string straddle = refusal(
      "__global__ void k(int* o) {\n"
      "#if __CUDA_ARCH__ >= 700\n"
      "  *o = 1;\n"
      "}\n"
      "#endif\n");
  CHECK(has(straddle, "test.cu:2:"));
  CHECK(has(straddle, "braces"));
  // Branches of a class that differ in a data member.
  const std::string member = refusal(
      "struct S {\n"
      "#ifdef __CUDA_ARCH__\n"
      "  int device_only;\n"
      "#endif\n"
      "  int x;\n"
      "};\n");
  CHECK(has(member, "test.cu:3:"));
  CHECK(has(member, "one class"));
  // A label in a function whose body is written twice.
  const std::string label = refusal(
      "__host__ __device__ int f(int x) {\n"
      "#ifdef __CUDA_ARCH__\n"
      "  if (x) goto done;\n"
      "#endif\n"
      "done:\n"
      "  return x;\n"
      "}\n");
  CHECK(has(label, "test.cu:3:"));
  CHECK(has(label, "goto"));
  // A declaration split by the group.
  const std::string split = refusal(
      "#ifdef __CUDA_ARCH__\n"
      "__device__\n"
      "#else\n"
      "__host__\n"
      "#endif\n"
      "int f() { return 1; }\n");
  CHECK(has(split, "test.cu:2:"));
  CHECK(has(split, "part of a declaration"));
  // A group inside a declaration device and host code share.
  const std::string shared = refusal(
      "struct Config {\n"
      "  int lanes = \n"
      "#ifdef __CUDA_ARCH__\n"
      "  32;\n"
      "#else\n"
      "  1;\n"
      "#endif\n"
      "};\n");
  CHECK(has(shared, "test.cu:"));
  CHECK_FALSE(shared.empty());
}

TEST_CASE("an error in a body written twice names the source's line", "[rewriter][arch]") {
  const std::string message = refusal(
      "__host__ __device__ void f(int* o) {\n"
      "#ifdef __CUDA_ARCH__\n"
      "  *o = 1;\n"
      "#endif\n"
      "  k<<<1, 1>>>;\n"
      "}\n");
  CHECK(has(message, "test.cu:5:"));
}

TEST_CASE("a source without __CUDA_ARCH__ is left as it was", "[rewriter][arch]") {
  const std::string src = "__host__ __device__ int f() { return 1; }\n#if FOO\nint x;\n#endif\n";
  CHECK(rewrite_body(src) == src);
}

TEST_CASE("a lambda marked __device__ is read as the device reads it wherever it is written", "[rewriter][arch]") {
  const std::string out = rewrite_body(
      "void host_code(int* o) {\n"
      "  auto on_device = [=] __device__ (int i) -> int {\n"
      "#ifdef __CUDA_ARCH__\n"
      "    return 1;\n"
      "#else\n"
      "    return 2;\n"
      "#endif\n"
      "  };\n"
      "  auto both = [] __host__ __device__ () {\n"
      "#ifdef __CUDA_ARCH__\n"
      "    return 3;\n"
      "#else\n"
      "    return 4;\n"
      "#endif\n"
      "  };\n"
      "  auto plain = [] { return 5; };\n"
      "}\n");
  CHECK(has(out, "return 1;"));
  CHECK_FALSE(has(out, "return 2;"));
  // The host function holds __CUDA_ARCH__ tests, so it is written twice, and so is each lambda.
  CHECK(count_of(out, "return 3;") >= 1);
  CHECK(count_of(out, "return 4;") >= 1);
  CHECK(count_of(out, "in_device_code") >= 2);
}
