// Compile tests: the rewritten course kernels (data/course_kernels.cu) must be valid C++ for the
// compiler that builds the project (`-std=c++20 -fsyntax-only` against emu_stub.hpp), its diagnostics
// must name the student's file and line, and __LINE__ in a rewritten launch must expand to the line of
// the kernel name.
#include "rewrite_test_helpers.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace fs = std::filesystem;
using gpulab::rewriter::rewrite_cuda_source;
using namespace gpulab::rewriter::test;

namespace {

const fs::path test_dir = GPULAB_REWRITER_TEST_DIR;
const std::string compiler = GPULAB_REWRITER_TEST_CXX;
const std::string student_file = "course_kernels.cu";

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_file(const fs::path& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  REQUIRE(out.good());
}

// Quotes a path for the POSIX shell.
std::string quote(const std::string& s) {
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A fresh directory under the system temp directory, removed again by the destructor.
struct TempDir {
  fs::path path;
  TempDir() {
    std::random_device rd;
    path = fs::temp_directory_path() / ("gpulab_rewriter_test_" + std::to_string(rd()) + std::to_string(rd()));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

struct CompileResult {
  int status;
  std::string output;  // stdout and stderr together
};

// Rewrites `source` as the student's file, writes it to `dir` and runs the compiler on it with `mode`
// (-fsyntax-only or -E -P) and the stub runtime header force-included.
CompileResult compile_rewritten(const std::string& source, const TempDir& dir, const std::string& mode) {
  const fs::path file = dir.path / (student_file + ".cpp");
  write_file(file, rewrite_cuda_source(source, student_file));
  const fs::path output = dir.path / "compiler-output.txt";
  const std::string command = quote(compiler) + " -std=c++20 " + mode + " -x c++ -include " +
                              quote((test_dir / "emu_stub.hpp").string()) + " " + quote(file.string()) + " > " +
                              quote(output.string()) + " 2>&1";
  const int status = std::system(command.c_str());
  return {status, read_file(output)};
}

std::string course_kernels() {
  const std::string text = read_file(test_dir / "data" / student_file);
  REQUIRE(!text.empty());
  return text;
}

}  // namespace

TEST_CASE("rewritten course kernels are valid C++", "[rewriter][compile]") {
  const TempDir dir;
  const CompileResult result = compile_rewritten(course_kernels(), dir, "-fsyntax-only");
  INFO(result.output);
  CHECK(result.status == 0);
}

TEST_CASE("kernel registrations are valid C++ beside overloads, namespaces and templates", "[rewriter][compile]") {
  const std::string source =
      "typedef float real;\n"
      "namespace ns {\n"
      "struct Params { int n; };\n"
      "__global__ void k(real* x, Params p = {3}) {}\n"
      "__global__ void k(int* x) {}\n"
      "__global__ void later(int n);\n"
      "}\n"
      "__global__ void ns::later(int n) {}\n"
      "template <typename T> __global__ void t(T* a) {}\n"
      "extern \"C\" __global__ void __launch_bounds__(128) c_kernel(const float* __restrict__ in,\n"
      "                                                              float* out) {}\n"
      "static __global__ void local_kernel() {}\n"
      "int main() { return 0; }\n";
  const TempDir dir;
  const CompileResult result = compile_rewritten(source, dir, "-fsyntax-only");
  INFO(result.output);
  CHECK(result.status == 0);
}

TEST_CASE("compiler errors in rewritten code name the student's file and line", "[rewriter][compile][line]") {
  const std::string original = course_kernels();
  // One marker in a kernel (after rewritten __shared__ declarations, one of them over two lines), one
  // in host code (after a launch split over three lines).
  for (const std::string marker : {"/*@@KERNEL_ERROR@@*/", "/*@@HOST_ERROR@@*/"}) {
    CAPTURE(marker);
    const long line = line_of(original, marker);
    REQUIRE(line > 0);
    std::string broken = original;
    broken.replace(broken.find(marker), marker.size(), "undeclared_in_student_code();");
    const TempDir dir;
    const CompileResult result = compile_rewritten(broken, dir, "-fsyntax-only");
    INFO(result.output);
    CHECK(result.status != 0);
    CHECK_THAT(result.output, Catch::Contains(student_file + ":" + std::to_string(line) + ":5: error:") &&
                                  Catch::Contains("undeclared_in_student_code"));
  }
}

TEST_CASE("__LINE__ in rewritten launches is the line of the kernel name", "[rewriter][compile][line]") {
  const std::string original = course_kernels();
  const TempDir dir;
  const CompileResult result = compile_rewritten(original, dir, "-E -P");
  INFO(result.output.substr(result.output.size() > 4000 ? result.output.size() - 4000 : 0));
  REQUIRE(result.status == 0);
  struct Expected {
    const char* kernel_text;  // first argument of launcher(...)
    const char* line_marker;  // unique text on the kernel name's line in the original
  };
  for (const Expected& e :
       {Expected{"convolution_1d_tiled", "convolution_1d_tiled<<<"}, Expected{"matmul_tiled", "matmul_tiled<<<grid,"},
        Expected{"reduce_sum<float, BLOCK>", "reduce_sum<float, BLOCK><<<blocks"},
        Expected{"reduce_sum<float, BLOCK>", "reduce_sum<float, BLOCK>\n"},
        Expected{"count_positive", "CHECK_LAUNCH(count_positive"}, Expected{"fill", "fill<<<"}}) {
    const std::string expected = "::gpulab::emu::launcher(\"" + std::string(e.kernel_text) + "\", " +
                                 std::to_string(line_of(original, e.line_marker)) + ",";
    CAPTURE(expected);
    CHECK(result.output.find(expected) != std::string::npos);
  }
}
