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

// The precompiled header a build's command names (empty where it names none).
fs::path named_header(const std::string& command) {
  const std::string root = gpulab::toolchain::precompiled_headers_root().string() + "/";
  const size_t at = command.find(root);
  if (at == std::string::npos) return {};
  const size_t end = command.find(' ', at);
  return fs::path(command.substr(at, end == std::string::npos ? std::string::npos : end - at)) /
         "gpulab/emu/cuda_emulation.hpp.gch";
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
  const fs::path made = named_header(gpulab::toolchain::build_program(work / "prog.cu", plain).command);
  INFO("precompiled header: " << made);
  REQUIRE_FALSE(made.empty());
  REQUIRE(fs::is_regular_file(made));
  CHECK(fs::file_size(made) > 1000000);  // the header with the standard library's

  SECTION("made once: the next build uses it as it is") {
    const auto before = fs::last_write_time(made);
    CHECK(build_and_run(work / "prog.cu", plain) == "asserts on\n");
    CHECK(fs::last_write_time(made) == before);
  }
  SECTION("the checking build has its own") {
    if (!gpulab::toolchain::race_check_available()) return;
    gpulab::toolchain::BuildOptions checking;
    checking.race_check = true;
    CHECK(build_and_run(work / "prog.cu", checking) == "asserts on\n");
    checking.use_cache = false;
    const fs::path own = named_header(gpulab::toolchain::build_program(work / "prog.cu", checking).command);
    CHECK(own != made);
    CHECK(fs::is_regular_file(own));
  }
  SECTION("a macro of the command line that the header reads: the header is read, NDEBUG holds") {
    gpulab::toolchain::BuildOptions with_ndebug = plain;
    with_ndebug.defines = {"NDEBUG"};
    CHECK(build_and_run(work / "prog.cu", with_ndebug) == "asserts off\n");
  }
  SECTION("a damaged precompiled header: the header is read") {
    // The build's own, damaged for the length of one build and then put back (a grading that runs
    // beside this test meanwhile reads the header itself, as this build must).
    struct PutBack {
      fs::path file, saved;
      ~PutBack() {
        std::error_code ec;
        fs::rename(saved, file, ec);
      }
    } put_back{made, made.string() + ".saved"};
    fs::copy_file(made, put_back.saved, fs::copy_options::overwrite_existing);
    write_file(made.string() + ".new", "not a precompiled header");
    fs::rename(made.string() + ".new", made);
    CHECK(build_and_run(work / "prog.cu", plain) == "asserts on\n");
  }
  SECTION("turned off: none is named") {
    ScopedEnv off("GPULAB_NO_PRECOMPILED_HEADER", "1");
    CHECK_FALSE(gpulab::toolchain::precompiled_header_enabled());
    gpulab::toolchain::BuildOptions o = plain;
    o.use_cache = false;
    const auto built = gpulab::toolchain::build_program(work / "prog.cu", o);
    REQUIRE(built.ok);
    CHECK(named_header(built.command).empty());
  }
}
