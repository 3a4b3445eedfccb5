// Tests of the performance score (grader/grade/performance, lab.json's
// "performance") on the emulator, where the same method times the CPU: a
// made-up lab "unit_speed" whose reference and checker the test writes.
// Proves the pipeline end to end: a correct submission is timed against the
// reference with every timed call checked; results kept from an earlier call,
// whatever the cache is keyed on, and inputs overwritten by the call are
// caught at the first timed call; work left on a non-blocking stream is waited
// for; a reported speed beyond the device's limits is implausible and flagged;
// a timed run naming another device than the grader's own probe fails for
// review; without a checker speed is shown but not scored; without the reference,
// memory-bound parts fall back to the copy bandwidth; an incorrect part earns
// no speed points; with speed off the points leave the maximum; calibrate
// times the reference.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "data/dataset.hpp"
#include "gold/dataset_generation.hpp"
#include "gold/gold_registry.hpp"
#include "grade/grading.hpp"
#include "grade/performance.hpp"
#include "grade/reports.hpp"
#include "grade/submission_runner.hpp"
#include "grader_test_support.hpp"
#include "grade/plausibility.hpp"
#include "lab/performance_spec.hpp"
#include "speed_lab_fixture.hpp"

using gpulab::NdArray;
using gpulab::grade::PerformanceStatus;
using gpulab_test::kKernel;
using gpulab_test::kReference;
using gpulab_test::ScopedEnv;
using gpulab_test::speed_lab;
using gpulab_test::speed_lab_json;
using gpulab_test::SpeedHome;
using gpulab_test::TempDir;
using nlohmann::json;

namespace {
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
// Keys its cache on 16 sampled input values, copied to the host, as well as n; computes
// honestly but slowly (the same kernel 20 times) when the key is new.
const std::string kFingerprint = std::string(kKernel) + R"(
#include <cstring>
static int key[17];
static int* saved = nullptr;
void triple_it(const int* in, int* out, int n) {
  int now[17] = {n};
  for (int k = 0; k < 16; ++k) cudaMemcpy(&now[k + 1], in + (long long)k * n / 16, sizeof(int), cudaMemcpyDeviceToHost);
  if (saved && std::memcmp(now, key, sizeof key) == 0) {
    cudaMemcpy(out, saved, n * sizeof(int), cudaMemcpyDeviceToDevice);
    return;
  }
  for (int r = 0; r < 20; ++r) thrice<<<(n + 255) / 256, 256>>>(in, out, n);
  if (!saved) cudaMalloc(&saved, n * sizeof(int));
  cudaMemcpy(saved, out, n * sizeof(int), cudaMemcpyDeviceToDevice);
  std::memcpy(key, now, sizeof key);
}
)";
// After its first call, overwrites its input with zeros and returns zeros: right for the
// inputs it leaves behind, wrong for the ones it was given.
const std::string kZeroesInputs = std::string(kKernel) + R"(
static int calls = 0;
void triple_it(const int* in, int* out, int n) {
  if (calls++ == 0) {
    thrice<<<(n + 255) / 256, 256>>>(in, out, n);
    return;
  }
  cudaMemset(const_cast<int*>(in), 0, n * sizeof(int));
  cudaMemset(out, 0, n * sizeof(int));
}
)";
// Registers a checker table of its own (an empty one) from a static constructor, hoping the
// harness trusts it, or at least gives up checking.
std::string registers_checker() {
  return kReference + R"(
#include <cstddef>
extern "C" void gpulab_harness_adopt_checker(const void* table, size_t count);
static struct Usurper { Usurper() { gpulab_harness_adopt_checker(nullptr, 0); } } usurper;
)";
}
// Wrong for n = 1 only: a correctness case fails, so no speed points.
const std::string kWrongSmall = std::string(kKernel) + R"(
void triple_it(const int* in, int* out, int n) { thrice<<<(n + 255) / 256, 256>>>(in, out, n > 1 ? n : 0); }
)";

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
  CHECK_THROWS_WITH(gpulab::parse_lab_spec(broken([](json& p) {
                                             p["thresholds"] = {{1.0, 0.5}, {0.5, 1.0}};
                                           }),
                                           "x/lab.json"),
                    Catch::Contains("x values must increase"));
  CHECK_THROWS_WITH(
      gpulab::parse_lab_spec(broken([](json& p) {
                               p["thresholds"] = {{1.0, 1.5}};
                             }),
                             "x/lab.json"),
      Catch::Contains("performance.thresholds[0][1]") && Catch::Contains("must be a number >= 0 and <= 1"));
  CHECK_THROWS_WITH(gpulab::parse_lab_spec(broken([](json& p) { p.erase("sizes"); }), "x/lab.json"),
                    Catch::StartsWith("x/lab.json: parts[0].performance (part 'triple'): missing key 'sizes'"));
  CHECK_THROWS_WITH(gpulab::parse_lab_spec(broken([](json& p) { p["work"] = "flops"; }), "x/lab.json"),
                    Catch::Contains("parts[0].performance (part 'triple'): missing key 'flops'"));
  CHECK_THROWS_WITH(gpulab::parse_lab_spec(broken([](json& p) { p["inputs"] = json::object(); }), "x/lab.json"),
                    Catch::Contains("parts[0].performance.inputs (part 'triple'): missing key 'in'"));
  // Timed inputs must be able to change from call to call.
  CHECK_THROWS_WITH(
      gpulab::parse_lab_spec(broken([](json& p) {
                               p["inputs"]["in"] = {{"dist", "constant"}, {"value", 2}};
                             }),
                             "x/lab.json"),
      Catch::Contains("parts[0].performance.inputs.in (part 'triple'): a distribution with a single value"));
  CHECK_THROWS_WITH(gpulab::parse_lab_spec(broken([](json& p) {
                                             p["inputs"]["in"] = {{"dist", "uniform_int"}, {"min", 4}, {"max", 4}};
                                           }),
                                           "x/lab.json"),
                    Catch::Contains("single value"));
  CHECK_THROWS_WITH(gpulab::parse_lab_spec(broken([](json& p) { p["error_depth"] = "log2(q)"; }), "x/lab.json"),
                    Catch::Contains("parts[0].performance.error_depth (part 'triple'): ") && Catch::Contains("q"));
  CHECK(lab.checker_file == "reference/unit_speed/checker.cu");
  json no_checker_file = speed_lab_json();
  no_checker_file["checker"] = {{"name", "x"}};
  CHECK_THROWS_WITH(gpulab::parse_lab_spec(no_checker_file, "x/lab.json"),
                    Catch::StartsWith("x/lab.json: checker.name: unknown key"));
  no_checker_file["checker"] = json::object();
  CHECK_THROWS_WITH(gpulab::parse_lab_spec(no_checker_file, "x/lab.json"),
                    Catch::StartsWith("x/lab.json: checker: missing key 'file'"));
  // A float part's timed outputs need the depth of its error bound.
  json float_part = speed_lab_json();
  float_part["parts"][0]["check"] = {{"kind", "float_bound"}, {"factor", 4}};
  CHECK_THROWS_WITH(gpulab::parse_lab_spec(float_part, "x/lab.json"),
                    Catch::Contains("float outputs need 'error_depth'"));
  float_part["parts"][0]["performance"]["error_depth"] = "log2(n)";
  CHECK(gpulab::parse_lab_spec(float_part, "x/lab.json").parts[0].performance->error_depth == "log2(n)");
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
  CHECK(r.status == PerformanceStatus::scored);
  CHECK(r.counted);
  CHECK(r.runs >= 10);
  CHECK(r.seconds > 0);
  CHECK(r.reference_seconds > 0);
  CHECK(r.ratio == Approx(r.reference_seconds / r.seconds));
  CHECK(r.score == Approx(4 * (0.5 + 0.5 * r.ratio / 1000)));
  CHECK(r.rate_unit == "GB/s");
  CHECK(r.copy_bandwidth > 0);
  CHECK(r.calls_checked >= r.runs + 3);  // every call, the warm-up ones too
  CHECK_THAT(r.feedback,
             Catch::Contains("The reference takes") && Catch::Contains("had new inputs and its output matched"));
  CHECK(g.max_score == 10);
  CHECK(g.score == Approx(6 + r.score));
  const json d = gpulab::grade::detailed_results(g);
  CHECK(d["parts"][0]["performance"]["status"] == "scored");
  CHECK(d["parts"][0]["performance"].contains("gbps"));
  const json gs = gpulab::grade::gradescope_results(g);
  CHECK(gs["tests"].back()["name"] == "triple: speed");
  CHECK(gs["tests"].back()["max_score"] == 4);
}

namespace {
// The speed test of a submission that must fail at the first timed call, whatever its cache.
void check_caught_at_first_timed_call(const std::string& source, const std::string& why) {
  SpeedHome h;
  const auto g = h.grade(source, gpulab::grade::PerformanceMode::on);
  REQUIRE(g.compiled);
  CHECK(g.parts[0].score == Approx(6));  // every correctness case runs in a fresh process: correct
  REQUIRE(g.parts[0].performance);
  const gpulab::grade::PerformanceResult& r = *g.parts[0].performance;
  INFO(r.feedback);
  CHECK(r.status == PerformanceStatus::failed);
  CHECK(r.score == 0);
  CHECK(r.counted);
  CHECK_THAT(r.feedback, Catch::StartsWith("timed call 1 ") && Catch::Contains(why) &&
                             Catch::Contains("results kept from an earlier call"));
}
}  // namespace

TEST_CASE("performance: results kept for the same pointers fail at the first timed call", "[performance]") {
  check_caught_at_first_timed_call(kCaching, "differs from the checker's result");
}

TEST_CASE("performance: a cache keyed on sampled inputs buys nothing", "[performance]") {
  // Inputs change at every call, so the cache almost never hits, and the submission is timed
  // at its honest (slow) speed; on the rare call whose 16 samples repeat an earlier call's, the
  // result it replays is wrong for the other elements and the speed test fails.
  SpeedHome h;
  const auto g = h.grade(kFingerprint, gpulab::grade::PerformanceMode::on);
  REQUIRE(g.parts[0].performance);
  const gpulab::grade::PerformanceResult& r = *g.parts[0].performance;
  INFO(r.feedback);
  if (r.status == PerformanceStatus::failed) {
    CHECK_THAT(r.feedback, Catch::Contains("differs from the checker's result"));
  } else {
    CHECK(r.status == PerformanceStatus::scored);
    CHECK(r.ratio < 0.5);  // the reference launches the kernel once, this one 20 times
  }
}

TEST_CASE("performance: a timed call that overwrites its inputs is caught", "[performance]") {
  check_caught_at_first_timed_call(kZeroesInputs, "modified its input 'in'");
}

TEST_CASE("performance: a submission that registers a checker of its own fails for review", "[performance]") {
  SpeedHome h;
  const auto g = h.grade(registers_checker(), gpulab::grade::PerformanceMode::on);
  REQUIRE(g.parts[0].performance);
  const gpulab::grade::PerformanceResult& r = *g.parts[0].performance;
  INFO(r.feedback);
  CHECK(r.status == PerformanceStatus::failed);
  CHECK(r.counted);  // its points stay in the maximum: tampering does not shrink it
  CHECK(r.score == 0);
  CHECK(g.max_score == 10);
  // The audit of its object names the harness's function it calls, before anything runs.
  CHECK_THAT(r.review, Catch::Contains("gpulab_harness_adopt_checker"));
  const json results = gpulab::grade::gradescope_results(g);
  bool flagged = false;
  for (const json& t : results["tests"])
    if (t.value("name", "") == "triple: speed") flagged = t["extra_data"].value("review", "") == r.review;
  CHECK(flagged);

  // Behind the audit (built as a trusted program is, without it), the harness itself trusts no
  // checker once a second one is registered.
  ScopedEnv env_home("GPULAB_HOME", h.home.path().string());
  ScopedEnv env_cache("GPULAB_CACHE", h.cache.path().string());
  const gpulab::LabSpec lab = speed_lab();
  gpulab::grade::GradeOptions o;
  o.performance = gpulab::grade::PerformanceMode::on;
  const gpulab::grade::SubmissionRunner runner(gpulab::sandbox::Mode::none, o.backend);
  gpulab::grade::TrustedPrograms trusted(lab, o, runner);
  gpulab_test::write_file(h.home / "usurper.cu", registers_checker());
  std::string problem;
  const std::filesystem::path program = trusted.build(h.home / "usurper.cu", "the usurper", problem);
  REQUIRE(!program.empty());
  TempDir work;
  gpulab::grade::PerformanceScorer scorer(lab, o, work.path(), runner, trusted);
  const gpulab::grade::PerformanceResult unaudited = scorer.measure(lab.parts[0], program, true);
  INFO(unaudited.feedback);
  CHECK(unaudited.status == PerformanceStatus::failed);
  CHECK_THAT(unaudited.review, Catch::Contains("tampered with") && Catch::Contains("more than one checker"));
}

TEST_CASE("performance: without a checker speed is shown but not scored", "[performance]") {
  SpeedHome h(true, false);
  const auto g = h.grade(kReference, gpulab::grade::PerformanceMode::on);
  REQUIRE(g.parts[0].performance);
  const gpulab::grade::PerformanceResult& r = *g.parts[0].performance;
  INFO(r.feedback);
  CHECK(r.status == PerformanceStatus::not_measured);
  CHECK_FALSE(r.counted);
  CHECK(r.score == 0);
  CHECK(r.calls_checked == 0);
  CHECK(g.max_score == 6);
  CHECK_THAT(r.feedback, Catch::Contains("not scored here: every timed call's output must be checked") &&
                             Catch::Contains("no checker") && Catch::Contains("would earn about"));
}

TEST_CASE("performance: a speed beyond the device's limits is implausible, earns nothing and is flagged",
          "[performance]") {
  SpeedHome h;
  ScopedEnv env_home("GPULAB_HOME", h.home.path().string());
  ScopedEnv env_cache("GPULAB_CACHE", h.cache.path().string());
  const gpulab::LabSpec lab = speed_lab();
  gpulab::grade::GradeOptions o;
  o.performance = gpulab::grade::PerformanceMode::on;
  const gpulab::grade::SubmissionRunner runner(gpulab::sandbox::Mode::none, o.backend);
  TempDir work;
  gpulab::grade::TrustedPrograms trusted(lab, o, runner);
  gpulab::grade::PerformanceScorer scorer(lab, o, work.path(), runner, trusted);
  const gpulab::grade::PerformanceResult r = scorer.measure(lab.parts[0], GPULAB_LYING_TIMER_HARNESS, true);
  INFO(r.feedback);
  CHECK(r.status == PerformanceStatus::implausible);
  CHECK(r.score == 0);
  CHECK(r.counted);
  CHECK_THAT(r.review, Catch::Contains("copy bandwidth measured on this device in the same run"));
  CHECK_THAT(r.feedback, Catch::Contains("Implausible, for review"));

  gpulab::grade::GradeResult g;
  g.lab = "unit_speed";
  g.compiled = true;
  gpulab::grade::PartResult part;
  part.name = "triple";
  part.max_score = 10;
  part.performance = r;
  g.parts.push_back(part);
  const json gs = gpulab::grade::gradescope_results(g);
  const json& test = gs["tests"].back();
  CHECK(test["name"] == "triple: speed");
  CHECK(test["status"] == "failed");
  CHECK(test["extra_data"]["implausible"] == true);
  CHECK_THAT(test["extra_data"]["review"].get<std::string>(), Catch::Contains("GB/s"));
  const json d = gpulab::grade::detailed_results(g);
  CHECK(d["parts"][0]["performance"]["status"] == "implausible");
  CHECK_THAT(d["parts"][0]["performance"]["review"].get<std::string>(), Catch::Contains("copy bandwidth"));
  CHECK_THAT(gpulab::grade::text_report(g, false, true), Catch::Contains("REVIEW"));
}

TEST_CASE("performance: a timed run that names another device than the grader's probe fails for review",
          "[performance]") {
  SpeedHome h;
  ScopedEnv env_home("GPULAB_HOME", h.home.path().string());
  ScopedEnv env_cache("GPULAB_CACHE", h.cache.path().string());
  const gpulab::LabSpec lab = speed_lab();
  gpulab::grade::GradeOptions o;
  o.performance = gpulab::grade::PerformanceMode::on;
  const gpulab::grade::SubmissionRunner runner(gpulab::sandbox::Mode::none, o.backend);
  TempDir work;
  gpulab::grade::TrustedPrograms trusted(lab, o, runner);
  gpulab::grade::PerformanceScorer scorer(lab, o, work.path(), runner, trusted);
  const gpulab::grade::PerformanceResult r = scorer.measure(lab.parts[0], GPULAB_LYING_DEVICE_HARNESS, true);
  INFO(r.feedback);
  CHECK(r.status == PerformanceStatus::failed);
  CHECK(r.score == 0);
  CHECK(r.counted);
  CHECK_THAT(r.review,
             Catch::Contains("a made-up GPU") && Catch::Contains("the grader's probe found gpulab CPU emulator"));
  // The device and copy bandwidth shown are the probe's, not the submission's claim.
  CHECK(r.device == "gpulab CPU emulator (sm_90 limits)");
  CHECK(r.copy_bandwidth > 0);
}

TEST_CASE("performance: the physical limits of a device", "[performance]") {
  using gpulab::grade::DeviceIdentity;
  const auto device = [](const char* cc, long long sms, long long clock_khz) {
    DeviceIdentity d;
    d.compute_capability = cc;
    d.multiprocessors = sms;
    d.clock_khz = clock_khz;
    return d;
  };
  const DeviceIdentity h100 = device("9.0", 132, 1980000);
  CHECK(gpulab::grade::peak_fp32_flops(h100) == Approx(132 * 128 * 2 * 1.98e9));
  CHECK(gpulab::grade::peak_fp32_flops(device("8.0", 108, 1410000)) == Approx(108 * 64 * 2 * 1.41e9));
  CHECK(gpulab::grade::peak_fp32_flops(device("42.0", 1, 1)) == 0);
  DeviceIdentity emulator = h100;
  emulator.emulated = true;
  CHECK(gpulab::grade::peak_fp32_flops(emulator) == 0);

  // Memory: up to 25% above the copy bandwidth passes (read-mostly kernels beat a copy a little).
  CHECK(gpulab::grade::judge_speed(1.2e9, 0, 1.0, 1e9, h100).plausible);
  const gpulab::grade::Plausibility fast = gpulab::grade::judge_speed(1.3e9, 0, 1.0, 1e9, h100);
  CHECK_FALSE(fast.plausible);
  CHECK_THAT(fast.reason, Catch::Contains("130% of the copy bandwidth"));
  // Arithmetic: above the FP32 peak (a matrix product that moves few bytes).
  const double peak = gpulab::grade::peak_fp32_flops(h100);
  CHECK(gpulab::grade::judge_speed(1e6, peak, 1.0, 3e12, h100).plausible);
  const gpulab::grade::Plausibility flops = gpulab::grade::judge_speed(1e6, 1.2 * peak, 1.0, 3e12, h100);
  CHECK_FALSE(flops.plausible);
  CHECK_THAT(flops.reason, Catch::Contains("120% of this device's FP32 peak"));
  CHECK(gpulab::grade::judge_speed(1e6, 1.2 * peak, 1.0, 3e12, emulator).plausible);  // no peak known there
}

TEST_CASE("performance: work left on a non-blocking stream is waited for and counted", "[performance]") {
  SpeedHome h;
  const auto g = h.grade(kNonBlocking, gpulab::grade::PerformanceMode::on);
  REQUIRE(g.compiled);
  REQUIRE(g.parts[0].performance);
  INFO(g.parts[0].performance->feedback);
  CHECK(g.parts[0].score == Approx(6 + g.parts[0].performance->score));
  CHECK(g.parts[0].performance->status == PerformanceStatus::scored);
}

TEST_CASE("performance: an incorrect part earns no speed points", "[performance]") {
  SpeedHome h;
  const auto g = h.grade(kWrongSmall, gpulab::grade::PerformanceMode::on);
  REQUIRE(g.parts[0].performance);
  CHECK(g.parts[0].performance->status == PerformanceStatus::failed);
  CHECK_THAT(g.parts[0].performance->feedback, Catch::Contains("only when every correctness case"));
  CHECK(g.max_score == 10);
}

TEST_CASE("performance: without the reference, memory-bound speed is scored by copy bandwidth", "[performance]") {
  SpeedHome h(false, true);
  const auto g = h.grade(kReference, gpulab::grade::PerformanceMode::on);
  REQUIRE(g.parts[0].performance);
  const gpulab::grade::PerformanceResult& r = *g.parts[0].performance;
  INFO(r.feedback);
  CHECK(r.status == PerformanceStatus::scored);
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
  const gpulab::grade::SubmissionRunner runner(gpulab::sandbox::Mode::none, o.backend);
  TempDir work;
  gpulab::grade::TrustedPrograms trusted(lab, o, runner);
  gpulab::grade::PerformanceScorer scorer(lab, o, work.path(), runner, trusted);
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
  SpeedHome h(false, true);
  CHECK_THROWS_WITH(calibrate_speed_lab(h), Catch::Contains("calibrating needs the reference solution"));
}
