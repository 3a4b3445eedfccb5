// Compiling ahead of grading (the batch's parallel compile step) must build
// exactly what grade_submission builds: after prebuild_submission, grading the
// same file adds nothing to the build cache.
#include <catch2/catch.hpp>

#include <set>

#include "batch/prebuild.hpp"
#include "grader_test_support.hpp"

namespace fs = std::filesystem;
using gpulab_test::ScopedEnv;
using gpulab_test::TempDir;

namespace {
std::set<std::string> cache_entries(const fs::path& cache) {
  std::set<std::string> s;
  for (const auto& e : fs::recursive_directory_iterator(cache)) {
    const std::string rel = fs::relative(e.path(), cache).string();
    if (rel.rfind("datasets", 0) != 0) s.insert(rel);  // the large cases are not builds
  }
  return s;
}
}  // namespace

TEST_CASE("prebuilt submissions are cache hits when graded", "[batch][prebuild]") {
  TempDir cache, work;
  ScopedEnv c("GPULAB_CACHE", cache.path().string());
  ScopedEnv home("GPULAB_HOME", std::string(GPULAB_TEST_SOURCE_DIR));
  const gpulab::LabSpec lab = gpulab::grade::load_lab("histogram");
  fs::copy_file(fs::path(GPULAB_TEST_SOURCE_DIR) / "reference/histogram/histogram.cu", work / "histogram.cu");
  gpulab::grade::GradeOptions o;
  o.include_large = false;
  o.include_hidden = false;
  const auto built = gpulab::batch::prebuild_submission(lab, work / "histogram.cu", o);
  REQUIRE(built.ok);
  CHECK(built.seconds > 0);
  const auto before = cache_entries(cache.path());
  const auto g = gpulab::grade::grade_submission(lab, work / "histogram.cu", o);
  CHECK(g.compiled);
  CHECK(g.score == Approx(g.max_score));
  CHECK(cache_entries(cache.path()) == before);
}
