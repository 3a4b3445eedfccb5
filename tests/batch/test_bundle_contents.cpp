// What goes into the packages: the student kit never holds a reference
// solution, the project's tests or a hidden dataset; the Gradescope bundle
// holds exactly one lab with its reference, and the scripts at its root.
#include <catch2/catch.hpp>

#include <set>

#include "bundle/gradescope_bundle.hpp"
#include "bundle/student_kit.hpp"
#include "grade/grading.hpp"
#include "grader_test_support.hpp"

namespace fs = std::filesystem;
using gpulab_test::TempDir;

namespace {
const fs::path kRoot = GPULAB_TEST_SOURCE_DIR;

std::set<std::string> destinations(const std::vector<gpulab::bundle::BundleFile>& files) {
  std::set<std::string> s;
  for (const auto& f : files) s.insert(f.to);
  return s;
}
bool starts(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }
}  // namespace

TEST_CASE("student kit: skeletons, assignments, public data and the grader, no solutions", "[batch][bundle]") {
  const auto files = destinations(gpulab::bundle::student_kit_files(kRoot, {}));
  for (const char* lab : {"convolution", "histogram", "matmul", "reduction", "scan"}) {
    const std::string l = lab;
    CHECK(files.count("skeletons/" + l + "/" + l + ".cu"));
    CHECK(files.count("assignments/" + l + "/lab.json"));
    CHECK(files.count("assignments/" + l + "/README.md"));
    CHECK(files.count("datasets/" + l + "/manifest.json"));
    CHECK(files.count("reference/" + l + "/gold.cpp"));
    CHECK_FALSE(files.count("reference/" + l + "/" + l + ".cu"));
  }
  CHECK(files.count("README.md"));
  CHECK(files.count("CMakeLists.txt"));
  CHECK(files.count("grader/cli/main.cpp"));
  CHECK(files.count("scripts/install-deps.sh"));
  CHECK(files.count("cmake/cuda_toolkit.cmake"));  // the build needs it
  for (const std::string& f : files) {
    INFO(f);
    CHECK_FALSE(starts(f, "tests/"));
    CHECK_FALSE(starts(f, "bench/"));
    CHECK_FALSE((starts(f, "reference/") && fs::path(f).filename() != "gold.cpp"));
    CHECK(fs::path(f).filename() != "hidden-seed");
  }
}

TEST_CASE("student kit: refuses a datasets folder made from the hidden seed", "[batch][bundle]") {
  TempDir d;
  for (const char* dir : {"cmake", "grader", "examples", "docs", "scripts"})
    fs::create_directory_symlink(kRoot / dir, d / dir);
  fs::copy_file(kRoot / "CMakeLists.txt", d / "CMakeLists.txt");
  fs::create_directories(d / "assignments");
  fs::create_directory_symlink(kRoot / "assignments/scan", d / "assignments/scan");
  fs::create_directories(d / "skeletons");
  fs::create_directory_symlink(kRoot / "skeletons/scan", d / "skeletons/scan");
  fs::create_directories(d / "reference/scan");
  fs::copy_file(kRoot / "reference/scan/gold.cpp", d / "reference/scan/gold.cpp");
  fs::create_directories(d / "datasets/scan");
  gpulab_test::write_file(d / "datasets/scan/manifest.json",
                          R"({"lab": "scan", "lab_version": "1", "seed": 5, "hidden": true, "cases": []})");
  CHECK_THROWS_WITH(gpulab::bundle::student_kit_files(d.path(), {}),
                    Catch::Contains("hidden datasets") && Catch::Contains("--public"));
}

TEST_CASE("gradescope bundle: one lab, its reference, scripts at the root", "[batch][bundle]") {
  gpulab_test::ScopedEnv home("GPULAB_HOME", kRoot.string());
  const gpulab::LabSpec lab = gpulab::grade::load_lab("scan");
  const auto files = destinations(gpulab::bundle::gradescope_files(kRoot, lab));
  CHECK(files.count("setup.sh"));
  CHECK(files.count("run_autograder"));
  CHECK(files.count("reference/scan/scan.cu"));
  CHECK(files.count("reference/scan/gold.cpp"));
  CHECK(files.count("datasets/scan/manifest.json"));
  for (const std::string& f : files) {
    INFO(f);
    CHECK_FALSE(starts(f, "tests/"));
    CHECK_FALSE(starts(f, "reference/matmul"));
    CHECK_FALSE(starts(f, "datasets/matmul"));
  }
  gpulab::bundle::GradescopeOptions o;
  o.grade_args = {"--no-large"};
  const std::string conf = gpulab::bundle::autograder_conf(lab, o);
  CHECK_THAT(conf, Catch::Contains("GPULAB_LAB='scan'\n") && Catch::Contains("GPULAB_GRADE_ARGS=('--no-large')\n") &&
                       Catch::Contains("GPULAB_HIDDEN_SEED_ENV='GPULAB_HIDDEN_SEED'\n") &&
                       Catch::Contains("GPULAB_MAX_SUBMISSIONS_PER_DAY=\n"));
  o.max_submissions_per_day = 3;
  CHECK_THAT(gpulab::bundle::autograder_conf(lab, o), Catch::Contains("GPULAB_MAX_SUBMISSIONS_PER_DAY=3\n"));
}
