// Tests of the performance score (grader/grade/performance, lab.json's
// "performance") on the emulator, where the same method times the CPU: a
// made-up lab "unit_speed" whose reference the test writes. Proves the
// pipeline end to end: a correct submission is timed against the reference;
// one that returns cached results on a repeated call is caught by the call on
// fresh inputs; work left on a non-blocking stream is waited for; without the
// reference, memory-bound parts fall back to the copy bandwidth; an incorrect
// part earns no speed points; with speed off the points leave the maximum;
// calibrate times the reference.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "data/dataset.hpp"
#include "gold/gold_registry.hpp"
#include "grade/grading.hpp"
#include "grade/performance.hpp"
#include "grade/reports.hpp"
#include "grade/submission_runner.hpp"
#include "grader_test_support.hpp"
#include "lab/performance_spec.hpp"

using gpulab::NdArray;
using gpulab_test::ScopedEnv;
using gpulab_test::TempDir;
using nlohmann::json;

namespace {
void gold_triple(const gpulab::gold::Case& c, gpulab::gold::Expected& out) {
  const auto in = c.input("in").as<int32_t>();
  std::vector<int32_t> v(in.begin(), in.end());
  for (int32_t& x : v) x *= 3;
  out.set("out", NdArray::from(v));
}
}  // namespace

GPULAB_GOLD("unit_speed", "triple", gold_triple);

namespace {
json speed_lab_json() {
  return json::parse(R"({"lab": "unit_speed", "version": "1", "public_seed": 5, "parts": [
    {"name": "triple", "points": 10, "function": "triple_it", "time_limit_s": 30,
     "params": [{"name": "in", "role": "input", "dtype": "int32", "shape": ["n"]},
                {"name": "out", "role": "output", "dtype": "int32", "shape": ["n"]},
                {"name": "n", "role": "size"}],
     "check": {"kind": "exact"},
     "performance": {"points": 4, "sizes": {"n": 5000}, "work": "bytes",
                     "inputs": {"in": {"dist": "uniform_int", "min": -9, "max": 9}},
                     "thresholds": [[0.0, 0.5], [1000.0, 1.0]],
                     "bandwidth_thresholds": [[0.0, 0.25], [1000.0, 1.0]]},
     "datasets": [{"family": "small", "sizes": [{"n": 1}, {"n": 777}],
                   "inputs": {"in": {"dist": "uniform_int", "min": -50, "max": 50}}}]}]})");
}
gpulab::LabSpec speed_lab() { return gpulab::parse_lab_spec(speed_lab_json(), "unit_speed/lab.json"); }

const char* const kKernel = R"(
__global__ void thrice(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 3 * in[i];
}
)";
const std::string kReference = std::string(kKernel) +
                               "void triple_it(const int* in, int* out, int n) { thrice<<<(n + 255) / 256, 256>>>(in, out, n); }\n";
// Keeps its first result and copies it back when called again with the same pointers.
const std::string kCaching = std::string(kKernel) + R"(
static const int* seen_in = nullptr;
static int* saved = nullptr;
void triple_it(const int* in, int* out, int n) {
  if (in == seen_in) {
    cudaMemcpy(out, saved, n * sizeof(int), cudaMemcpyDeviceToDevice);
    return;
  }
  thrice<<<(n + 255) / 256, 256>>>(in, out, n);
  cudaMalloc(&saved, n * sizeof(int));
  cudaMemcpy(saved, out, n * sizeof(int), cudaMemcpyDeviceToDevice);
  seen_in = in;
}
)";
// Launches on a non-blocking stream and returns without waiting.
const std::string kNonBlocking = std::string(kKernel) + R"(
void triple_it(const int* in, int* out, int n) {
  static cudaStream_t s = nullptr;
  if (!s) cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  thrice<<<(n + 255) / 256, 256, 0, s>>>(in, out, n);
}
)";
// Wrong for n = 1 only: a correctness case fails, so no speed points.
const std::string kWrongSmall = std::string(kKernel) + R"(
void triple_it(const int* in, int* out, int n) { thrice<<<(n + 255) / 256, 256>>>(in, out, n > 1 ? n : 0); }
)";

struct SpeedHome {
  TempDir home;
  TempDir cache;
  explicit SpeedHome(bool with_reference = true) {
    std::filesystem::create_directory_symlink(std::string(GPULAB_TEST_SOURCE_DIR) + "/grader", home / "grader");
    const gpulab::LabSpec lab = speed_lab();
    gpulab::generate_datasets(lab, lab.public_seed, false, gpulab::Selection::public_small, home / "datasets/unit_speed");
    if (with_reference) {
      std::filesystem::create_directories(home / "reference/unit_speed");
      gpulab_test::write_file(home / "reference/unit_speed/unit_speed.cu", kReference);
    }
  }
  gpulab::grade::GradeResult grade(const std::string& source, gpulab::grade::PerformanceMode mode) {
    ScopedEnv env_home("GPULAB_HOME", home.path().string());
    ScopedEnv env_cache("GPULAB_CACHE", cache.path().string());
    const std::filesystem::path file = home / "student.cu";
    gpulab_test::write_file(file, source);
    gpulab::grade::GradeOptions o;
    o.performance = mode;
    o.race_check = false;
    return gpulab::grade::grade_submission(speed_lab(), file, o);
  }
};
}  // namespace

TEST_CASE("performance: lab.json's performance object is parsed and checked", "[performance]") {
  const gpulab::LabSpec lab = speed_lab();
  REQUIRE(lab.parts[0].performance);
  const gpulab::PerformanceSpec& p = *lab.parts[0].performance;
  CHECK(p.points == 4);
  CHECK(lab.parts[0].correctness_points() == 6);
  CHECK(gpulab::performance_work(p, lab.parts[0]) == 5000 * 4 * 2);  // in read + out written

  auto broken = [](const std::function<void(json&)>& edit) {
    json j = speed_lab_json();
    edit(j["parts"][0]["performance"]);
    return j;
  };
  CHECK_THROWS_WITH(gpulab::parse_lab_spec(broken([](json& p) { p["points"] = 11; }), "x/lab.json"),
                    Catch::Contains("share of the part's points"));
  CHECK_THROWS_WITH(gpulab::parse_lab_spec(broken([](json& p) { p["thresholds"] = {{1.0, 0.5}, {0.5, 1.0}}; }), "x/lab.json"),
                    Catch::Contains("x values must increase"));
  CHECK_THROWS_WITH(gpulab::parse_lab_spec(broken([](json& p) { p["thresholds"] = {{1.0, 1.5}}; }), "x/lab.json"),
                    Catch::Contains("between 0 and 1"));
  CHECK_THROWS_WITH(gpulab::parse_lab_spec(broken([](json& p) { p.erase("sizes"); }), "x/lab.json"),
                    Catch::Contains("x/lab.json, part 'triple', performance: missing object 'sizes'"));
  CHECK_THROWS_WITH(gpulab::parse_lab_spec(broken([](json& p) { p["work"] = "flops"; }), "x/lab.json"),
                    Catch::Contains("needs 'flops'"));
  CHECK_THROWS_WITH(gpulab::parse_lab_spec(broken([](json& p) { p["inputs"] = json::object(); }), "x/lab.json"),
                    Catch::Contains("for input 'in'"));
}

TEST_CASE("performance: the score is piecewise linear and flat outside the thresholds", "[performance]") {
  const std::vector<gpulab::ScorePoint> t{{0.25, 0.0}, {0.5, 0.6}, {1.0, 1.0}};
  CHECK(gpulab::PerformanceSpec::fraction_at(t, 0.1) == 0.0);
  CHECK(gpulab::PerformanceSpec::fraction_at(t, 0.375) == Approx(0.3));
  CHECK(gpulab::PerformanceSpec::fraction_at(t, 0.75) == Approx(0.8));
  CHECK(gpulab::PerformanceSpec::fraction_at(t, 3.0) == 1.0);
  CHECK(gpulab::grade::describe_thresholds(t, "x") == "0.25x -> 0%, 0.5x -> 60%, 1x -> 100% (linear in between)");
}

TEST_CASE("performance: a correct submission is timed against the reference", "[performance]") {
  SpeedHome h;
  const auto g = h.grade(kReference, gpulab::grade::PerformanceMode::on);
  INFO(g.compile_output);
  REQUIRE(g.compiled);
  REQUIRE(g.parts.size() == 1);
  REQUIRE(g.parts[0].performance);
  const gpulab::grade::PerformanceResult& r = *g.parts[0].performance;
  INFO(r.feedback);
  CHECK(r.status == "scored");
  CHECK(r.counted);
  CHECK(r.runs >= 10);
  CHECK(r.seconds > 0);
  CHECK(r.reference_seconds > 0);
  CHECK(r.ratio == Approx(r.reference_seconds / r.seconds));
  CHECK(r.score == Approx(4 * (0.5 + 0.5 * r.ratio / 1000)));
  CHECK(r.rate_unit == "GB/s");
  CHECK(r.copy_bandwidth > 0);
  CHECK(r.feedback.find("The reference takes") != std::string::npos);
  CHECK(g.max_score == 10);
  CHECK(g.score == Approx(6 + r.score));
  const json d = gpulab::grade::detailed_results(g);
  CHECK(d["parts"][0]["performance"]["status"] == "scored");
  CHECK(d["parts"][0]["performance"].contains("gbps"));
  const json gs = gpulab::grade::gradescope_results(g);
  CHECK(gs["tests"].back()["name"] == "triple: speed");
  CHECK(gs["tests"].back()["max_score"] == 4);
}

TEST_CASE("performance: results cached between calls are caught by the call on fresh inputs", "[performance]") {
  SpeedHome h;
  const auto g = h.grade(kCaching, gpulab::grade::PerformanceMode::on);
  REQUIRE(g.compiled);
  CHECK(g.parts[0].score == Approx(6));  // every correctness case runs in a fresh process: correct
  REQUIRE(g.parts[0].performance);
  const gpulab::grade::PerformanceResult& r = *g.parts[0].performance;
  CHECK(r.status == "failed");
  CHECK(r.score == 0);
  CHECK(r.counted);
  CHECK_THAT(r.feedback, Catch::Contains("fresh inputs in the same buffers") &&
                             Catch::Contains("keep results from an earlier call"));
}

TEST_CASE("performance: work left on a non-blocking stream is waited for and counted", "[performance]") {
  SpeedHome h;
  const auto g = h.grade(kNonBlocking, gpulab::grade::PerformanceMode::on);
  REQUIRE(g.compiled);
  REQUIRE(g.parts[0].performance);
  INFO(g.parts[0].performance->feedback);
  CHECK(g.parts[0].score == Approx(6 + g.parts[0].performance->score));
  CHECK(g.parts[0].performance->status == "scored");
}

TEST_CASE("performance: an incorrect part earns no speed points", "[performance]") {
  SpeedHome h;
  const auto g = h.grade(kWrongSmall, gpulab::grade::PerformanceMode::on);
  REQUIRE(g.parts[0].performance);
  CHECK(g.parts[0].performance->status == "failed");
  CHECK_THAT(g.parts[0].performance->feedback, Catch::Contains("only when every correctness case"));
  CHECK(g.max_score == 10);
}

TEST_CASE("performance: without the reference, memory-bound speed is scored by copy bandwidth", "[performance]") {
  SpeedHome h(false);
  const auto g = h.grade(kReference, gpulab::grade::PerformanceMode::on);
  REQUIRE(g.parts[0].performance);
  const gpulab::grade::PerformanceResult& r = *g.parts[0].performance;
  INFO(r.feedback);
  CHECK(r.status == "scored");
  CHECK(r.reference_seconds == 0);
  CHECK(r.bandwidth_fraction > 0);
  CHECK(r.score == Approx(4 * (0.25 + 0.75 * r.bandwidth_fraction / 1000)));
  CHECK_THAT(r.feedback, Catch::Contains("not installed here"));
}

TEST_CASE("performance: with speed off its points leave the maximum and the report says why", "[performance]") {
  SpeedHome h;
  const auto g = h.grade(kReference, gpulab::grade::PerformanceMode::automatic);  // emulator: off
  CHECK_FALSE(g.parts[0].performance);
  CHECK(g.max_score == 6);
  CHECK(g.score == Approx(6));
  CHECK_THAT(g.performance_note, Catch::Contains("4 of the lab's points are for speed"));
  CHECK_THAT(gpulab::grade::text_report(g, false, true), Catch::Contains("scored on a GPU"));
}

namespace {
// Calibrates part "triple" of the made-up lab in `h` (the reference runs without the sandbox).
gpulab::grade::Calibration calibrate_speed_lab(SpeedHome& h) {
  ScopedEnv env_home("GPULAB_HOME", h.home.path().string());
  ScopedEnv env_cache("GPULAB_CACHE", h.cache.path().string());
  const gpulab::LabSpec lab = speed_lab();
  gpulab::grade::GradeOptions o;
  const gpulab::grade::SubmissionRunner runner(false, o.backend);
  TempDir work;
  gpulab::grade::PerformanceScorer scorer(lab, o, work.path(), runner);
  return scorer.calibrate(lab.parts[0]);
}
}  // namespace

TEST_CASE("performance: calibrate times the reference and scales the bandwidth thresholds", "[performance]") {
  SpeedHome h;
  const gpulab::grade::Calibration c = calibrate_speed_lab(h);
  CHECK(c.seconds > 0);
  CHECK(c.runs >= 10);
  CHECK(c.rate_unit == "GB/s");
  CHECK(c.copy_bandwidth > 0);
  CHECK(c.bandwidth_fraction == Approx(c.rate * 1e9 / c.copy_bandwidth));
  REQUIRE(c.proposed_bandwidth_thresholds.size() == 2);  // one per speed-ratio threshold
  CHECK(c.proposed_bandwidth_thresholds[0].fraction == 0.5);
  CHECK(c.proposed_bandwidth_thresholds[1].fraction == 1.0);
  CHECK(c.case_label == "timed case (n=5000)");
}

TEST_CASE("performance: calibrate without a reference says what is missing", "[performance]") {
  SpeedHome h(false);
  CHECK_THROWS_WITH(calibrate_speed_lab(h), Catch::Contains("calibrating needs the reference solution"));
}
