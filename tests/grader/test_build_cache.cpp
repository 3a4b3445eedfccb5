// The build cache of toolchain::build_program: a cached emulator build is found
// before the source is rewritten (no rewrite at all on a hit), and the cache
// misses when a header the source includes changes (next to it or in an include
// folder) or when the options change.
#include <catch2/catch.hpp>

#include "grader_test_support.hpp"
#include "toolchain/toolchain.hpp"

namespace fs = std::filesystem;
using gpulab_test::ScopedEnv;
using gpulab_test::TempDir;
using gpulab_test::write_file;

namespace {
const char* kProgram = R"(#include "scale.cuh"
#include "shared/offset.cuh"
__global__ void scale(int* v) { v[threadIdx.x] = v[threadIdx.x] * kFactor + kOffset; }
int main() {
  int* v = nullptr;
  cudaMallocManaged(&v, 4 * sizeof(int));
  for (int i = 0; i < 4; ++i) v[i] = i;
  scale<<<1, 4>>>(v);
  cudaDeviceSynchronize();
  return v[3] == 3 * kFactor + kOffset ? 0 : 1;
}
)";

// One build; `rewrote` is how many sources it rewrote for the emulator.
gpulab::toolchain::BuildResult build(const fs::path& source, const gpulab::toolchain::BuildOptions& o,
                                     size_t& rewrote) {
  const size_t before = gpulab::toolchain::emulator_rewrites();
  gpulab::toolchain::BuildResult r = gpulab::toolchain::build_program(source, o);
  rewrote = gpulab::toolchain::emulator_rewrites() - before;
  return r;
}
}  // namespace

TEST_CASE("build cache: a hit rewrites nothing, a changed header or option misses", "[toolchain][cache]") {
  TempDir cache, work;
  ScopedEnv c("GPULAB_CACHE", cache.path().string());
  fs::create_directories(work / "include/shared");
  write_file(work / "prog.cu", kProgram);
  write_file(work / "scale.cuh", "constexpr int kFactor = 2;\n");
  write_file(work / "include/shared/offset.cuh", "constexpr int kOffset = 1;\n");
  gpulab::toolchain::BuildOptions o;
  o.include_dirs = {(work / "include").string()};
  size_t rewrote = 0;

  const auto first = build(work / "prog.cu", o, rewrote);
  INFO(first.compiler_output);
  REQUIRE(first.ok);
  CHECK_FALSE(first.cached);
  CHECK(rewrote == 1);

  const auto again = build(work / "prog.cu", o, rewrote);
  CHECK(again.cached);
  CHECK(rewrote == 0);  // found before the rewriter ran
  CHECK(again.executable == first.executable);

  // Each change is a miss, rewritten and built again.
  write_file(work / "scale.cuh", "constexpr int kFactor = 3;\n");
  const auto edited = build(work / "prog.cu", o, rewrote);
  REQUIRE(edited.ok);
  CHECK_FALSE(edited.cached);
  CHECK(rewrote == 1);
  CHECK(edited.executable != first.executable);

  write_file(work / "include/shared/offset.cuh", "constexpr int kOffset = 5;\n");
  const auto edited_in_folder = build(work / "prog.cu", o, rewrote);
  REQUIRE(edited_in_folder.ok);
  CHECK_FALSE(edited_in_folder.cached);
  CHECK(rewrote == 1);
  CHECK(edited_in_folder.executable != edited.executable);

  gpulab::toolchain::BuildOptions other = o;
  other.link_flags = {"-Wl,--as-needed"};
  const auto relinked = build(work / "prog.cu", other, rewrote);
  REQUIRE(relinked.ok);
  CHECK_FALSE(relinked.cached);
  CHECK(rewrote == 1);
  CHECK(relinked.executable != edited_in_folder.executable);

  // Without the cache the source is rewritten and built even though an entry exists.
  gpulab::toolchain::BuildOptions fresh = o;
  fresh.use_cache = false;
  const auto rebuilt = build(work / "prog.cu", fresh, rewrote);
  CHECK(rebuilt.ok);
  CHECK_FALSE(rebuilt.cached);
  CHECK(rewrote == 1);
}
