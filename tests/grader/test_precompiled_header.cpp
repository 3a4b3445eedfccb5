// The emulator's CUDA header precompiled into the build cache (toolchain/precompiled_header.hpp):
// made once for each set of compile options (the plain and the checking build each have theirs),
// and never a reason for a different program: a build that cannot use it (a macro of the command
// line that the header reads, a damaged file) reads the header itself and runs the same, as does a
// build with precompiled headers turned off.
#include <catch2/catch.hpp>

#include "grader_test_support.hpp"
#include "process/run.hpp"
#include "toolchain/precompiled_header.hpp"
#include "toolchain/toolchain.hpp"

namespace fs = std::filesystem;
using gpulab_test::ScopedEnv;
using gpulab_test::TempDir;
using gpulab_test::write_file;

namespace {
// Exit status 0 only where the kernel ran; prints whether assert() is compiled in (NDEBUG).
const char* kProgram = R"(#include <cassert>
#include <cstdio>
__global__ void square(int* v) { v[threadIdx.x] *= v[threadIdx.x]; }
int main() {
  int* v = nullptr;
  cudaMallocManaged(&v, 8 * sizeof(int));
  for (int i = 0; i < 8; ++i) v[i] = i;
  square<<<1, 8>>>(v);
  cudaDeviceSynchronize();
#ifdef NDEBUG
  std::printf("asserts off\n");
#else
  std::printf("asserts on\n");
#endif
  return v[7] == 49 ? 0 : 1;
}
)";

std::vector<fs::path> precompiled_files(const fs::path& cache) {
  std::vector<fs::path> found;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(cache / "headers", ec); !ec && it != fs::end(it); it.increment(ec))
    if (it->path().extension() == ".gch") found.push_back(it->path());
  return found;
}

// Builds `source` (again, not from the cache) and runs it: its output, or a failure.
std::string build_and_run(const fs::path& source, gpulab::toolchain::BuildOptions o) {
  o.use_cache = false;
  const gpulab::toolchain::BuildResult built = gpulab::toolchain::build_program(source, o);
  INFO(built.compiler_output);
  REQUIRE(built.ok);
  const gpulab::process::ProcessResult r = gpulab::process::run({built.executable.string()});
  INFO(r.output);
  REQUIRE(r.status() == 0);
  return r.output;
}
}  // namespace

TEST_CASE("precompiled header: made once per set of options, never a different program", "[toolchain][cache]") {
  if (!gpulab::toolchain::precompiled_header_enabled()) {
    WARN("this build of gpulab makes no precompiled header (not g++): nothing to test");
    return;
  }
  TempDir cache, work;
  ScopedEnv c("GPULAB_CACHE", cache.path().string());
  write_file(work / "prog.cu", kProgram);
  gpulab::toolchain::BuildOptions plain;

  CHECK(build_and_run(work / "prog.cu", plain) == "asserts on\n");
  const std::vector<fs::path> made = precompiled_files(cache.path());
  REQUIRE(made.size() == 1);
  CHECK(fs::file_size(made.front()) > 1000000);  // the header with the standard library's
  CHECK(gpulab::toolchain::build_program(work / "prog.cu", plain).command.find(
            (cache.path() / "headers").string()) != std::string::npos);

  SECTION("made once: the next build uses it") {
    const auto before = fs::last_write_time(made.front());
    CHECK(build_and_run(work / "prog.cu", plain) == "asserts on\n");
    CHECK(precompiled_files(cache.path()).size() == 1);
    CHECK(fs::last_write_time(made.front()) == before);
  }
  SECTION("the checking build has its own") {
    gpulab::toolchain::BuildOptions checking;
    checking.race_check = true;
    if (!gpulab::toolchain::race_check_available()) return;
    CHECK(build_and_run(work / "prog.cu", checking) == "asserts on\n");
    CHECK(precompiled_files(cache.path()).size() == 2);
  }
  SECTION("a macro of the command line that the header reads: the header is read, NDEBUG holds") {
    gpulab::toolchain::BuildOptions with_ndebug = plain;
    with_ndebug.defines = {"NDEBUG"};
    CHECK(build_and_run(work / "prog.cu", with_ndebug) == "asserts off\n");
  }
  SECTION("a damaged precompiled header: the header is read") {
    write_file(made.front(), "not a precompiled header");
    CHECK(build_and_run(work / "prog.cu", plain) == "asserts on\n");
  }
  SECTION("turned off: none is made or named") {
    ScopedEnv off("GPULAB_NO_PRECOMPILED_HEADER", "1");
    CHECK_FALSE(gpulab::toolchain::precompiled_header_enabled());
    TempDir other_cache;
    ScopedEnv c2("GPULAB_CACHE", other_cache.path().string());
    gpulab::toolchain::BuildOptions o = plain;
    o.use_cache = false;
    const auto built = gpulab::toolchain::build_program(work / "prog.cu", o);
    REQUIRE(built.ok);
    CHECK(built.command.find((other_cache.path() / "headers").string()) == std::string::npos);
    CHECK(precompiled_files(other_cache.path()).empty());
  }
}
