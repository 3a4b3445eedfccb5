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

namespace {
const gpulab::grade::StepTiming* step_named(const gpulab::grade::GradeResult& g, const std::string& name) {
  for (const auto& s : g.timings.steps)
    if (s.step == name) return &s;
  return nullptr;
}

std::vector<std::filesystem::path> hidden_folders(const std::filesystem::path& cache) {
  std::vector<std::filesystem::path> found;
  for (const auto& e : std::filesystem::directory_iterator(cache / "datasets"))
    if (e.path().filename().string().find("unit_grading-v1-hidden-") == 0) found.push_back(e.path());
  return found;
}
}  // namespace

TEST_CASE("grading: hidden cases are generated once into a private cache folder, then read from it", "[grading]") {
  GradingHome h;
  ScopedEnv env_home("GPULAB_HOME", h.home.path().string());
  ScopedEnv env_cache("GPULAB_CACHE", h.cache.path().string());
  ScopedEnv env_secret("GPULAB_UNIT_GRADING_SECRET", std::string("s3cret"));
  const gpulab::LabSpec lab = grading_lab();
  gpulab::grade::GradeOptions o;
  o.only_parts = {"double"};
  const auto first = gpulab::grade::grade_submission(lab, h.submission, o);
  REQUIRE(first.compiled);
  CHECK(first.score == Approx(6));
  const auto* generated = step_named(first, "datasets: hidden (cache)");
  REQUIRE(generated);
  CHECK_THAT(generated->note, Catch::Contains("generated"));
  auto folders = hidden_folders(h.cache.path());
  REQUIRE(folders.size() == 1);
  // Private to the grader's user, as the temporary folder it replaces; named by a hash, not the secret.
  CHECK((std::filesystem::status(folders[0]).permissions() & std::filesystem::perms::all) ==
        std::filesystem::perms::owner_all);
  CHECK(folders[0].filename().string().find("s3cret") == std::string::npos);

  const auto again = gpulab::grade::grade_submission(lab, h.submission, o);
  const auto* read = step_named(again, "datasets: hidden (cache)");
  REQUIRE(read);
  CHECK_THAT(read->note, Catch::Contains("read"));
  REQUIRE(again.parts[0].cases.size() == first.parts[0].cases.size());
  for (size_t i = 0; i < again.parts[0].cases.size(); ++i) {
    CHECK(again.parts[0].cases[i].label == first.parts[0].cases[i].label);
    CHECK(again.parts[0].cases[i].passed == first.parts[0].cases[i].passed);
  }
  CHECK(hidden_folders(h.cache.path()).size() == 1);

  // Another secret: other cases, in a folder of their own.
  ScopedEnv other_secret("GPULAB_UNIT_GRADING_SECRET", std::string("another"));
  const auto other = gpulab::grade::grade_submission(lab, h.submission, o);
  CHECK(other.score == Approx(6));
  CHECK(hidden_folders(h.cache.path()).size() == 2);
}

TEST_CASE("grading: --timings records each build, dataset source and case with the child's phases", "[grading]") {
  GradingHome h;
  ScopedEnv env_home("GPULAB_HOME", h.home.path().string());
  ScopedEnv env_cache("GPULAB_CACHE", h.cache.path().string());
  ScopedEnv env_secret("GPULAB_UNIT_GRADING_SECRET", std::nullopt);
  const gpulab::LabSpec lab = grading_lab();
  gpulab::grade::GradeOptions o;
  const auto g = gpulab::grade::grade_submission(lab, h.submission, o);
  REQUIRE(g.compiled);
  for (const char* step : {"plain build: submission object", "audit of the object", "plain build: harness program",
                           "datasets: committed public (verified)", "datasets: large public (cache)"}) {
    CAPTURE(step);
    CHECK(step_named(g, step));
  }
  const auto* object = step_named(g, "plain build: submission object");
  REQUIRE(object);
  CHECK(object->note == "compiled");
  size_t cases = 0;
  for (const auto& p : g.parts) cases += p.cases.size();
  REQUIRE(g.timings.cases.size() == cases);
  for (const auto& c : g.timings.cases) {
    CAPTURE(c.part, c.label);
    CHECK(c.start_s >= 0);
    if (c.part == "negate") {  // the function is missing: the harness stops before any call
      CHECK(c.call_s < 0);
      continue;
    }
    // The harness's markers arrived in order, within the child's life as the parent saw it.
    CHECK(c.setup_s >= 0);
    CHECK(c.call_s >= 0);
    CHECK(c.finish_s >= 0);
    CHECK(c.start_s + c.setup_s + c.call_s + c.finish_s == Approx(c.child_s).margin(1e-6));
  }
  const std::string text = gpulab::grade::timings_text(g.timings);
  CHECK_THAT(text, Catch::Contains("plain build: submission object"));
  CHECK_THAT(text, Catch::Contains("total"));
  // A second grading finds both builds in the cache, and says so.
  const auto cached = gpulab::grade::grade_submission(lab, h.submission, o);
  const auto* hit = step_named(cached, "plain build: submission object");
  REQUIRE(hit);
  CHECK(hit->note == "cache hit");
}
