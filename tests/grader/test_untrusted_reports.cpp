// What a submission's process writes about itself is untrusted input
// (grade/harness_report.hpp): every malformed shape of result.json a child
// can leave (wrong types, null, numbers out of range or not finite, missing
// and extra fields, huge lists, names the part does not have, not JSON, not
// UTF-8, too large, deeply nested, a folder) fails that run with a message
// and marks it for review, on the correctness path and on the speed path,
// and never makes the grader throw. A stand-in child (report_child.cpp)
// computes the right outputs and writes each variant; the control (no
// variant) passes, so these tests cannot pass for the wrong reason.
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "data/dataset.hpp"
#include "grade/case_findings.hpp"
#include "grade/case_runner.hpp"
#include "grade/harness_report.hpp"
#include "grade/performance.hpp"
#include "grade/submission_runner.hpp"
#include "grade/trusted_program.hpp"
#include "grader_test_support.hpp"
#include "speed_lab_fixture.hpp"

using gpulab::grade::FailureKind;
using gpulab::grade::PerformanceStatus;
using gpulab_test::ScopedEnv;
using gpulab_test::SpeedHome;
using gpulab_test::TempDir;
using nlohmann::json;

namespace {
// The stand-in child, copied into a folder of its own with `variant` beside it.
std::filesystem::path child_with(const TempDir& dir, const json& variant) {
  const std::filesystem::path program = dir / "child";
  std::filesystem::copy_file(GPULAB_REPORT_CHILD, program, std::filesystem::copy_options::overwrite_existing);
  if (!variant.is_null()) gpulab_test::write_file(dir / "variant.json", variant.dump());
  return program;
}

json set(const std::string& pointer, const json& value) {
  return {{"set", json::array({json::array({pointer, value})})}};
}
json remove(const std::string& pointer) { return {{"remove", json::array({pointer})}}; }

// Malformed on every path: the report a correctness case reads.
std::vector<std::pair<std::string, json>> malformed_reports() {
  std::string nested;
  for (int i = 0; i < 100000; ++i) nested += "[";
  return {
      {"kernel launches as text", set("/kernel_launches", "many")},
      {"kernel launches not whole", set("/kernel_launches", 1.5)},
      {"kernel launches below -1", set("/kernel_launches", -7)},
      {"kernel launches absurd", set("/kernel_launches", 1e300)},
      {"kernel launches null", set("/kernel_launches", nullptr)},
      {"kernel launches missing", remove("/kernel_launches")},
      {"inputs modified not a list", set("/inputs_modified", "in")},
      {"inputs modified names no input", set("/inputs_modified", json::array({"secret"}))},
      {"inputs modified names one twice", set("/inputs_modified", json::array({"in", "in"}))},
      {"inputs modified missing", remove("/inputs_modified")},
      {"guard overrun in no direction",
       set("/guard_overruns", json::array({{{"buffer", "out"}, {"where", "sideways"}, {"offset", 0}}}))},
      {"guard overrun of no buffer",
       set("/guard_overruns", json::array({{{"buffer", "elsewhere"}, {"where", "after"}, {"offset", 0}}}))},
      {"guard overruns huge", set("/guard_overruns", json::array({1, 2, 3, 4, 5, 6, 7}))},
      {"transfer route unknown", set("/transfers/routes", json::array({{{"route", "telepathy"}, {"bytes", 1}}}))},
      {"transfer route twice",
       set("/transfers/routes", json::array({{{"route", "copy"}, {"bytes", 1}}, {{"route", "copy"}, {"bytes", 2}}}))},
      {"transfer bytes negative", set("/transfers/routes", json::array({{{"route", "copy"}, {"bytes", -4}}}))},
      {"transfer routes not a list", set("/transfers/routes", "copy")},
      {"transfers not an object", set("/transfers", 0)},
      {"status unknown", set("/status", "perfect")},
      {"status null", set("/status", nullptr)},
      {"status missing", remove("/status")},
      {"another part", set("/part", "other")},
      {"a key the harness never writes", set("/score", 100)},
      {"seconds negative", set("/seconds", -1)},
      {"seconds infinite (1e999)", json{{"raw", R"({"part": "triple", "status": "ok", "seconds": 1e999})"}}},
      {"message of 100 KB", set("/message", std::string(100000, 'x'))},
      {"timing nobody asked for", set("/timing", {{"median_s", 1e-3}})},
      {"recheck nobody asked for", set("/recheck", json::object())},
      {"device name a number", set("/device", {{"name", 42}})},
      {"not JSON", json{{"raw", "{\"part\": \"triple\", \"status\""}}},
      {"a list, not an object", json{{"raw", "[1, 2, 3]"}}},
      {"nested 100000 deep", json{{"raw", nested}}},
      {"empty", json{{"raw", ""}}},
      {"larger than a report", json{{"raw_repeat", json::array({"                ", 80000})}}},
      {"not UTF-8", json{{"invalid_utf8", true}}},
  };
}

// Malformed only where timing is read: the speed test's report.
std::vector<std::pair<std::string, json>> malformed_timings() {
  return {
      {"median null (the tampered timer)", set("/timing/median_s", nullptr)},
      {"median text", set("/timing/median_s", "fast")},
      {"median negative", set("/timing/median_s", -1)},
      {"median infinite", set("/timing/median_s", 1e999)},
      {"runs beyond the request", set("/timing/runs", 1000000000000LL)},
      {"samples fewer than runs", set("/timing/samples_s", json::array({0.01}))},
      {"samples a million", set("/timing/samples_s", std::vector<double>(1000000, 0.01))},
      {"minimum above maximum", set("/timing/min_s", 1.0)},
      {"median below its samples' median (the time scored, forged)",
       json{{"set", json::array({json::array({"/timing/min_s", 0.0001}), json::array({"/timing/median_s", 0.0002}),
                                 json::array({"/timing/samples_s/0", 0.0001})})}}},
      {"timing with a key of its own", set("/timing/turbo", true)},
      {"timing missing", remove("/timing")},
      {"verification trust me", set("/verification/status", "trust me")},
      {"more calls checked than made", set("/verification/calls_checked", 100000)},
      {"device not an object", set("/device", "an H100")},
  };
}

struct UnitSpeed {
  SpeedHome h;
  ScopedEnv env_home{"GPULAB_HOME", h.home.path().string()};
  ScopedEnv env_cache{"GPULAB_CACHE", h.cache.path().string()};
  gpulab::LabSpec lab = gpulab_test::speed_lab();
  gpulab::Manifest manifest = gpulab::read_manifest(h.home / "datasets/unit_speed", true);
  gpulab::grade::GradeOptions options;
  gpulab::grade::SubmissionRunner runner{gpulab::sandbox::Mode::none, options.backend};
  UnitSpeed() { options.performance = gpulab::grade::PerformanceMode::on; }
};
}  // namespace

TEST_CASE("untrusted reports: the harness's own report is read", "[untrusted]") {
  UnitSpeed u;
  TempDir dir, work;
  const gpulab::grade::CaseRun run = gpulab::grade::run_harness_case(
      u.lab.parts[0], u.manifest, u.manifest.cases.front(), child_with(dir, nullptr), work.path(), u.runner);
  INFO(run.failure);
  CHECK(run.failure.empty());
  CHECK(run.review.empty());
  REQUIRE(run.report);
  CHECK(run.report->status == gpulab::grade::HarnessStatus::ok);
  CHECK(run.report->kernel_launches == 1);
  CHECK(gpulab::grade::compare_case_outputs(u.lab.parts[0], u.manifest, u.manifest.cases.front(), run.dir, "output_")
            .empty());
}

TEST_CASE("untrusted reports: every malformed report fails its case for review, never the grader", "[untrusted]") {
  UnitSpeed u;
  for (const auto& [name, variant] : malformed_reports()) {
    DYNAMIC_SECTION(name) {
      TempDir dir, work;
      gpulab::grade::CaseRun run;
      REQUIRE_NOTHROW(run = gpulab::grade::run_harness_case(u.lab.parts[0], u.manifest, u.manifest.cases.front(),
                                                            child_with(dir, variant), work.path(), u.runner));
      INFO(run.failure);
      CHECK(run.failure_kind == FailureKind::tampering);
      CHECK_THAT(run.failure, Catch::Contains("result.json") && Catch::Contains("marked for the instructor's review"));
      CHECK_FALSE(run.review.empty());
    }
  }
}

TEST_CASE("untrusted reports: a folder where the report should be fails the case", "[untrusted]") {
  UnitSpeed u;
  TempDir dir, work;
  gpulab::grade::CaseRun run;
  REQUIRE_NOTHROW(run = gpulab::grade::run_harness_case(u.lab.parts[0], u.manifest, u.manifest.cases.front(),
                                                        child_with(dir, {{"directory", true}}), work.path(), u.runner));
  CHECK_FALSE(run.failure.empty());
  CHECK(run.failure_kind != FailureKind::none);
}

TEST_CASE("untrusted reports: a well-formed timing report is scored", "[untrusted]") {
  UnitSpeed u;
  gpulab::grade::TrustedPrograms trusted(u.lab, u.options, u.runner);
  TempDir dir, work;
  gpulab::grade::PerformanceScorer scorer(u.lab, u.options, work.path(), u.runner, trusted);
  const gpulab::grade::PerformanceResult control = scorer.measure(u.lab.parts[0], child_with(dir, nullptr), true);
  INFO(control.feedback);
  CHECK(control.status == PerformanceStatus::scored);
  CHECK(control.review.empty());
}

TEST_CASE("untrusted reports: a malformed timing report fails the speed test for review", "[untrusted]") {
  static UnitSpeed u;  // one project and one reference build for every variant
  static gpulab::grade::TrustedPrograms trusted(u.lab, u.options, u.runner);
  for (const auto& [name, variant] : malformed_timings()) {
    DYNAMIC_SECTION(name) {
      TempDir dir, work;
      gpulab::grade::PerformanceScorer scorer(u.lab, u.options, work.path(), u.runner, trusted);
      gpulab::grade::PerformanceResult r;
      REQUIRE_NOTHROW(r = scorer.measure(u.lab.parts[0], child_with(dir, variant), true));
      INFO(r.feedback);
      CHECK(r.status == PerformanceStatus::failed);
      CHECK(r.score == 0);
      CHECK(r.counted);
      CHECK_FALSE(r.review.empty());
      CHECK_THAT(r.feedback, Catch::Contains("result.json"));
    }
  }
}

TEST_CASE("untrusted reports: a submission claiming the harness failed is checked against a trusted program",
          "[untrusted]") {
  UnitSpeed u;
  gpulab::grade::TrustedPrograms trusted(u.lab, u.options, u.runner);
  TempDir dir, work;
  const gpulab::grade::CaseRun run =
      gpulab::grade::run_harness_case(u.lab.parts[0], u.manifest, u.manifest.cases.front(),
                                      child_with(dir, set("/status", "harness_error")), work.path(), u.runner);
  REQUIRE_FALSE(run.harness_error.empty());
  // The reference runs the case: the claim is the submission's, not the grader's problem.
  std::string why;
  REQUIRE_NOTHROW(why = trusted.check_harness_failure(u.lab.parts[0], u.manifest, u.manifest.cases.front(),
                                                      run.harness_error, work / "trusted"));
  CHECK_THAT(why, Catch::Contains("the reference solution"));
}
