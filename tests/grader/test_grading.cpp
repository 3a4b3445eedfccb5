// Tests of the grading loop (grader/grade/grading) on a made-up lab
// "unit_grading" with a gold registered here: a real submission is compiled
// for the emulator and run case by case; parts are scored on their own,
// hidden cases carry the configured visibility, and a damaged cached dataset
// is not charged to the student.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "data/dataset.hpp"
#include "gold/dataset_generation.hpp"
#include "gold/gold_registry.hpp"
#include "grade/grading.hpp"
#include "grade/reports.hpp"
#include "grader_test_support.hpp"

using gpulab::NdArray;
using gpulab_test::ScopedEnv;
using gpulab_test::TempDir;
using nlohmann::json;

namespace {
void gold_double(const gpulab::gold::Case& c, gpulab::gold::Expected& out) {
  const auto in = c.input("in").as<int32_t>();
  std::vector<int32_t> v(in.begin(), in.end());
  for (int32_t& x : v) x *= 2;
  out.set("out", NdArray::from(v));
}
void gold_negate(const gpulab::gold::Case& c, gpulab::gold::Expected& out) {
  const auto in = c.input("in").as<int32_t>();
  std::vector<int32_t> v(in.begin(), in.end());
  for (int32_t& x : v) x = -x;
  out.set("out", NdArray::from(v));
}
}  // namespace

GPULAB_GOLD("unit_grading", "double", gold_double);
GPULAB_GOLD("unit_grading", "negate", gold_negate);

namespace {
gpulab::LabSpec grading_lab() {
  const char* part_template = R"({"name": "NAME", "points": 6, "function": "FUNC", "time_limit_s": 20,
       "params": [{"name": "in", "role": "input", "dtype": "int32", "shape": ["n"]},
                  {"name": "out", "role": "output", "dtype": "int32", "shape": ["n"]},
                  {"name": "n", "role": "size"}],
       "check": {"kind": "exact"},
       "datasets": [
         {"family": "small", "sizes": [{"n": 1}, {"n": 100}],
          "inputs": {"in": {"dist": "uniform_int", "min": -50, "max": 50}}},
         {"family": "large", "public": false, "sizes": [{"n": 3000}],
          "inputs": {"in": {"dist": "uniform_int", "min": -50, "max": 50}}}]})";
  auto part = [&](const std::string& name, const std::string& func) {
    std::string s = part_template;
    s.replace(s.find("NAME"), 4, name);
    s.replace(s.find("FUNC"), 4, func);
    return json::parse(s);
  };
  json j = {{"lab", "unit_grading"},
            {"version", "1"},
            {"public_seed", 3},
            {"hidden", {{"seed_env", "GPULAB_UNIT_GRADING_SECRET"}, {"visibility", "after_published"}}},
            {"parts", {part("double", "double_it"), part("negate", "negate_it")}}};
  return gpulab::parse_lab_spec(j, "unit_grading/lab.json");
}

// Defines double_it only: part "negate" must lose its points, and nothing else.
const char* const kSubmission = R"(
__global__ void twice(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2 * in[i];
}
void double_it(const int* in, int* out, int n) { twice<<<(n + 127) / 128, 128>>>(in, out, n); }
)";

// A project tree for GPULAB_HOME: the grader's headers and the lab's public datasets.
struct GradingHome {
  TempDir home;
  TempDir cache;
  std::filesystem::path submission;
  GradingHome() {
    std::filesystem::create_directory_symlink(std::string(GPULAB_TEST_SOURCE_DIR) + "/grader", home / "grader");
    const gpulab::LabSpec lab = grading_lab();
    gpulab::generate_datasets(lab, lab.public_seed, false, gpulab::Selection::public_small,
                              home / "datasets/unit_grading");
    submission = home / "student.cu";
    gpulab_test::write_file(submission, kSubmission);
  }
};
}  // namespace

TEST_CASE("grading: each part is scored on its own and hidden cases get the visibility", "[grading]") {
  GradingHome h;
  ScopedEnv env_home("GPULAB_HOME", h.home.path().string());
  ScopedEnv env_cache("GPULAB_CACHE", h.cache.path().string());
  ScopedEnv env_secret("GPULAB_UNIT_GRADING_SECRET", std::string("s3cret"));
  const gpulab::LabSpec lab = grading_lab();
  gpulab::grade::GradeOptions o;
  const gpulab::grade::GradeResult g = gpulab::grade::grade_submission(lab, h.submission, o);
  INFO(g.compile_output);
  REQUIRE(g.compiled);
  CHECK(g.lab == "unit_grading");
  CHECK(g.backend == "emu");
  CHECK(g.hidden_visibility == "after_published");
  CHECK(g.max_score == 12);
  CHECK(g.score == Approx(6));
  REQUIRE(g.parts.size() == 2);

  const auto& dbl = g.parts[0];
  CHECK(dbl.name == "double");
  CHECK(dbl.signature == "void double_it(const int* in, int* out, int n)");
  CHECK(dbl.score == Approx(6));
  // 2 small public + 1 large public + 3 hidden (every family).
  REQUIRE(dbl.cases.size() == 6);
  CHECK(dbl.cases[0].label == "dataset 1 (n=1)");
  CHECK(dbl.cases[2].label == "dataset 3 (n=3000)");
  CHECK(dbl.cases[3].label == "hidden dataset 1 (n=1)");
  for (const auto& c : dbl.cases) {
    CAPTURE(c.label, c.feedback);
    CHECK(c.passed);
    CHECK(c.failure == gpulab::grade::FailureKind::none);
    CHECK(c.max_score == Approx(1));
    CHECK(c.hidden == (c.label.rfind("hidden ", 0) == 0));
  }

  const auto& neg = g.parts[1];
  CHECK(neg.score == 0);
  REQUIRE_FALSE(neg.cases.empty());
  CHECK_THAT(neg.cases[0].feedback,
             Catch::Contains("does not define `void negate_it(const int* in, int* out, int n)`"));
  for (const auto& c : neg.cases) CHECK(c.failure == gpulab::grade::FailureKind::missing_function);
  CHECK(gpulab::grade::detailed_results(g)["parts"][1]["cases"][0]["failure_kind"] == "missing_function");

  const json r = gpulab::grade::gradescope_results(g);
  int hidden = 0;
  for (const json& t : r.at("tests")) {
    const std::string name = t.at("name");
    if (name.find(": hidden dataset") != std::string::npos) {
      ++hidden;
      CHECK(t.at("visibility") == "after_published");
    } else {
      CHECK(t.at("visibility") == "visible");
    }
  }
  CHECK(hidden == 6);
  CHECK(r.at("score") == 6.0);
}

// The large public cases are generated once into the cache and then read with
// read_manifest(dir, verify=false): a damaged cached file is handed to the
// harness, which dies on it, and the student's case is marked "crashed (abort)"
// with the points lost. The cache should be verified (and regenerated) or the
// grading should stop with an error naming the file, as for datasets/<lab>.
TEST_CASE("grading: a damaged cached large dataset is not charged to the student", "[grading]") {
  GradingHome h;
  ScopedEnv env_home("GPULAB_HOME", h.home.path().string());
  ScopedEnv env_cache("GPULAB_CACHE", h.cache.path().string());
  ScopedEnv env_secret("GPULAB_UNIT_GRADING_SECRET", std::nullopt);
  const gpulab::LabSpec lab = grading_lab();
  gpulab::grade::GradeOptions o;
  o.only_parts = {"double"};
  const auto first = gpulab::grade::grade_submission(lab, h.submission, o);
  REQUIRE(first.compiled);
  REQUIRE(first.score == Approx(6));

  const auto damaged = h.cache / "datasets/unit_grading-v1-seed3-large/double-large-1/input_in.npy";
  REQUIRE(std::filesystem::exists(damaged));
  std::filesystem::resize_file(damaged, std::filesystem::file_size(damaged) - 8);
  try {
    const auto again = gpulab::grade::grade_submission(lab, h.submission, o);
    for (const auto& c : again.parts[0].cases) {
      CAPTURE(c.label, c.feedback);
      CHECK(c.passed);
    }
  } catch (const gpulab::DatasetError& e) {
    CHECK_THAT(e.what(), Catch::Contains(damaged.string()));
  }
}
