// Adding a lab needs no edit to the grader's core (docs/adding-a-lab.md): the
// example lab in tests/batch/new_lab/ (lab.json, README, gold.cpp, reference,
// skeleton) is copied into a temporary project root (GPULAB_HOME), and the
// unchanged grader libraries make its public datasets, validate them with the
// gold and the reference, print its contract, grade the reference (full marks),
// the skeleton (zero) and a buggy submission, and batch-grade a class of them.
// This executable links the grader and only this lab's gold.cpp, as CMake's
// glob of reference/*/gold.cpp links every lab's into gpulab.
#include <catch2/catch.hpp>

#include "batch/batch_runner.hpp"
#include "batch/class_results.hpp"
#include "data/dataset.hpp"
#include "gold/dataset_generation.hpp"
#include "grade/grading.hpp"
#include "grader_test_support.hpp"
#include "harness/binding_generator.hpp"
#include "report/gradebook_csv.hpp"
#include "validate/dataset_validation.hpp"

namespace fs = std::filesystem;
using gpulab_test::ScopedEnv;
using gpulab_test::TempDir;

namespace {
const fs::path kExample = fs::path(GPULAB_TEST_SOURCE_DIR) / "tests/batch/new_lab";

// A project root holding the grader (for the harness sources) and the new lab only.
void make_project(const fs::path& home) {
  fs::create_directory_symlink(fs::path(GPULAB_TEST_SOURCE_DIR) / "grader", home / "grader");
  for (const char* dir : {"assignments", "reference", "skeletons"})
    fs::copy(kExample / dir, home / dir, fs::copy_options::recursive);
}
}  // namespace

TEST_CASE("a new lab is graded by the unchanged grader", "[batch][new-lab]") {
  TempDir home, cache, work;
  make_project(home.path());
  ScopedEnv h("GPULAB_HOME", home.path().string());
  ScopedEnv c("GPULAB_CACHE", cache.path().string());
  ScopedEnv no_secret("GPULAB_HIDDEN_SEED", std::nullopt);

  // lab.json is found and validated like any other lab.
  const gpulab::LabSpec lab = gpulab::grade::load_lab("vector_add");
  CHECK(lab.parts.size() == 1);
  CHECK(lab.parts[0].signature() == "void vector_add(const float* a, const float* b, float* c, int n)");
  CHECK_THAT(gpulab::harness::generate_contract_header(lab), Catch::Contains("void vector_add("));

  // `gpulab datagen vector_add --public`, then `gpulab validate vector_add datasets/vector_add`.
  const gpulab::Manifest m = gpulab::generate_datasets(lab, lab.public_seed, false, gpulab::Selection::public_small,
                                                       home / "datasets/vector_add");
  CHECK(m.cases.size() == 4);
  gpulab::validate::ValidationReport v = gpulab::validate::check_manifest_and_gold(lab, home / "datasets/vector_add");
  CHECK(v.problems.empty());
  CHECK(v.gold_checked == 4);
  gpulab::validate::check_with_reference(lab, home / "datasets/vector_add", gpulab::toolchain::Backend::emu, v);
  CHECK(v.reference_ran);
  CHECK(v.reference_passed == 4);
  CHECK(v.ok());

  // `gpulab grade`: the reference scores full marks, large cases included; the skeleton 0; a bug loses points.
  gpulab::grade::GradeOptions o;
  const auto ref = gpulab::grade::grade_submission(lab, home / "reference/vector_add/vector_add.cu", o);
  REQUIRE(ref.compiled);
  CHECK(ref.parts[0].cases.size() == 5);  // 4 public + 1 large
  CHECK(ref.score == Approx(10));
  const auto skel = gpulab::grade::grade_submission(lab, home / "skeletons/vector_add/vector_add.cu", o);
  CHECK(skel.compiled);
  CHECK(skel.score == 0);
  o.include_large = false;
  const auto bug = gpulab::grade::grade_submission(lab, kExample / "buggy/missing_bounds_check.cu", o);
  CHECK(bug.score < 10);
  bool out_of_bounds = false;
  for (const auto& cr : bug.parts[0].cases) out_of_bounds |= cr.feedback.find("out-of-bounds") != std::string::npos;
  CHECK(out_of_bounds);

  // `gpulab batch`: a class of the three.
  for (const char* s : {"ref", "skel", "bug"}) fs::create_directories(work / "class" / s);
  fs::copy_file(home / "reference/vector_add/vector_add.cu", work / "class/ref/vector_add.cu");
  fs::copy_file(home / "skeletons/vector_add/vector_add.cu", work / "class/skel/vector_add.cu");
  fs::copy_file(kExample / "buggy/missing_bounds_check.cu", work / "class/bug/vector_add.cu");
  gpulab::batch::BatchOptions b;
  b.submissions = work / "class";
  b.out = work / "out";
  b.jobs = 2;
  b.grade = o;
  const auto outcome = gpulab::batch::run_batch(lab, b, {}, nullptr);
  CHECK(outcome.graded == 3);
  const std::string csv =
      gpulab::report::gradebook_csv(gpulab::batch::load_class_results(b.out, lab, {}, outcome.students));
  CHECK_THAT(csv, Catch::Contains("ref,10,10,10,graded,,"));
  CHECK_THAT(csv, Catch::Contains("skel,0,0,10,graded,wrong_answer"));
}
