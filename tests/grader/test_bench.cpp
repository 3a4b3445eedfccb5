// Tests of `gpulab bench`'s host side (grader/bench): size expressions, --sizes
// parsing, every lab's "bench" object (it parses, names files that exist, and
// resolves to the sizes, bytes, operations and float tolerances the issue
// counts), and the table printed from a bench result.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "lab/bench_spec.hpp"
#include "bench/bench_table.hpp"
#include "lab/size_expression.hpp"
#include "lab/lab_spec.hpp"

using namespace gpulab::bench;
using gpulab::evaluate_size_expression;
using gpulab::ExpressionError;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {
const fs::path kRoot = GPULAB_TEST_SOURCE_DIR;
const char* const kLabs[] = {"convolution", "histogram", "matmul", "reduction", "scan"};

gpulab::LabSpec lab(const std::string& name) {
  return gpulab::load_lab_spec(kRoot / "assignments" / name / "lab.json");
}
}  // namespace

TEST_CASE("size expressions evaluate products, sums and log2 over a case's sizes") {
  const std::map<std::string, long long> s{{"m", 4096}, {"n", 8192}, {"k", 3}, {"mask_width", 7}};
  CHECK(evaluate_size_expression("2*m*n*k", s) == 2.0 * 4096 * 8192 * 3);
  CHECK(evaluate_size_expression("mask_width*mask_width", s) == 49);
  CHECK(evaluate_size_expression("(m + n) / 2 - 1", s) == 6143);
  CHECK(evaluate_size_expression("log2(n)", s) == 13);
  CHECK(evaluate_size_expression("log2(m + 1)", s) == 13);  // ceil
  CHECK(evaluate_size_expression("log2(1)", s) == 1);       // at least 1, as the golds' depth
  CHECK_THROWS_WITH(evaluate_size_expression("2*q", s),
                    Catch::Contains("unknown size 'q'") && Catch::Contains("mask_width"));
  CHECK_THROWS_WITH(evaluate_size_expression("2*(m", s), Catch::Contains("missing ')'"));
  CHECK_THROWS_WITH(evaluate_size_expression("m/0", s), Catch::Contains("division by zero"));
  CHECK_THROWS_WITH(evaluate_size_expression("m $ n", s), Catch::Contains("character 3"));
}

TEST_CASE("size overrides (--sizes) take NAME=VALUE pairs and reject anything else with an example") {
  CHECK(parse_size_override("n=1048576") == std::map<std::string, long long>{{"n", 1048576}});
  CHECK(parse_size_override("m=1,n=2,k=3") == std::map<std::string, long long>{{"m", 1}, {"n", 2}, {"k", 3}});
  for (const char* bad : {"", "n", "n=", "=4", "n=4x", "n=0", "n=-3", "n=4,", "4096"}) {
    CHECK_THROWS_WITH(parse_size_override(bad), Catch::Contains("--sizes n=1048576"));
  }
}

TEST_CASE("every lab's bench object parses and names files that exist") {
  for (const char* name : kLabs) {
    INFO(name);
    const gpulab::LabSpec l = lab(name);
    const BenchSpec b = load_bench_spec(l);
    CHECK(fs::is_regular_file(kRoot / b.baseline.file));
    if (b.checker) CHECK(fs::is_regular_file(kRoot / b.checker->file));
    CHECK(b.progression.size() >= 3);
    for (const Implementation& p : b.progression) CHECK(fs::is_regular_file(kRoot / p.file));
    // Every benchmarked part exists and every file in reference/<lab>/progression is listed.
    CHECK(b.parts.size() == l.parts.size());
    for (const auto& e : fs::directory_iterator(kRoot / "reference" / name / "progression")) {
      bool listed = false;
      for (const Implementation& p : b.progression) listed = listed || kRoot / p.file == e.path();
      CHECK(listed);
    }
  }
}

TEST_CASE("bench cases resolve to the issue's sizes, byte counts, operations and float tolerances") {
  const gpulab::LabSpec red = lab("reduction");
  const BenchSpec rb = load_bench_spec(red);
  const auto cases = resolve_cases(red, rb, {}, {});
  REQUIRE(cases.size() == 2);
  CHECK(cases[0].part == "int");
  CHECK(cases[0].exact);
  CHECK(cases[0].sizes.at("n") == (1ll << 28));
  CHECK(cases[0].bytes == 4.0 * (1ll << 28) + 4);  // the input read once, the sum written
  CHECK(!cases[1].exact);
  // Two float results, each within 256 * 2^-24 * log2(n) * sum|x| of the exact sum.
  CHECK(cases[1].tolerance == Approx(2 * 256 * 28 * std::ldexp(1.0, -24)));

  const gpulab::LabSpec mm = lab("matmul");
  const auto mcases = resolve_cases(mm, load_bench_spec(mm), {}, {});
  REQUIRE(mcases.size() >= 2);
  CHECK(mcases[1].sizes.at("k") == 8192);
  CHECK(mcases[1].flops == 2.0 * 8192 * 8192 * 8192);
  CHECK(mcases[1].tolerance == Approx(2 * 4 * 8192 * std::ldexp(1.0, -24)));

  const gpulab::LabSpec conv = lab("convolution");
  const auto c2 = resolve_cases(conv, load_bench_spec(conv), {"2d"}, {});
  REQUIRE(c2.size() == 2);
  CHECK(c2[1].sizes.at("mask_width") == 7);
  CHECK(c2[1].bytes == 2.0 * 4 * 8192 * 8192 + 4 * 49);  // input + output (+ the mask)
  CHECK(c2[1].tolerance == Approx(2 * 4 * 49 * std::ldexp(1.0, -24)));
}

TEST_CASE("a size override (--sizes) replaces the sizes it names in the parts that have them") {
  const gpulab::LabSpec conv = lab("convolution");
  const BenchSpec cb = load_bench_spec(conv);
  // 'width' and 'mask_width' exist in both parts; 'height' only in 2d.
  const auto both = resolve_cases(conv, cb, {}, {parse_size_override("width=1000")});
  for (const ResolvedCase& c : both) CHECK(c.sizes.at("width") == 1000);
  const auto only2d = resolve_cases(conv, cb, {}, {parse_size_override("height=100,width=200")});
  REQUIRE(!only2d.empty());
  for (const ResolvedCase& c : only2d) {
    CHECK(c.part == "2d");
    CHECK(c.sizes.at("height") == 100);
  }
  const gpulab::LabSpec red = lab("reduction");
  const auto two =
      resolve_cases(red, load_bench_spec(red), {"int"}, {parse_size_override("n=1000"), parse_size_override("n=2000")});
  REQUIRE(two.size() == 2);
  CHECK(two[1].sizes.at("n") == 2000);
  CHECK_THROWS_WITH(resolve_cases(red, load_bench_spec(red), {}, {parse_size_override("m=5")}),
                    Catch::Contains("no benchmarked part") && Catch::Contains("m"));
  CHECK_THROWS_WITH(resolve_cases(red, load_bench_spec(red), {"double"}, {}), Catch::Contains("int, float"));
}

TEST_CASE("a lab.json bench object with a mistake is refused with the field named") {
  gpulab::LabSpec red = lab("reduction");
  json j = json::parse(std::ifstream(red.file));
  json no_depth = j;  // neither in the bench part nor in the part's performance object
  no_depth["bench"]["parts"]["float"].erase("error_depth");
  gpulab::LabSpec red_without_depth = red;
  for (gpulab::PartSpec& part : red_without_depth.parts)
    if (part.performance) part.performance->error_depth.clear();
  CHECK_THROWS_WITH(parse_bench_spec(red_without_depth, no_depth),
                    Catch::Contains("bench.parts.float: float outputs need 'error_depth'"));
  json bad_size = j;
  bad_size["bench"]["parts"]["int"]["cases"][0]["sizes"] = {{"q", 4}};
  CHECK_THROWS_WITH(parse_bench_spec(red, bad_size),
                    Catch::Contains("bench.parts.int.cases[0].sizes.q (case 'uniform'): unknown key"));
  json no_input = j;
  no_input["bench"]["parts"]["int"]["cases"][0].erase("inputs");
  CHECK_THROWS_WITH(parse_bench_spec(red, no_input),
                    Catch::Contains("bench.parts.int.cases[0] (case 'uniform'): missing key 'inputs'"));
  json no_checker = j;  // no check_with and no lab-wide checker to fall back on
  no_checker["bench"]["baseline"]["computes_output"] = false;
  gpulab::LabSpec red_without_checker = red;
  red_without_checker.checker_file.clear();
  CHECK_THROWS_WITH(parse_bench_spec(red_without_checker, no_checker), Catch::Contains("check_with"));
  // With the lab's checker, the baseline's outputs are checked against it.
  CHECK(parse_bench_spec(red, no_checker).checker.has_value());
  json none = j;
  none.erase("bench");
  CHECK_THROWS_WITH(parse_bench_spec(red, none), Catch::Contains("no \"bench\" object"));
  // The bench object is checked when the lab loads, misspelt keys and part names included.
  json misspelt = j;
  misspelt["bench"]["parts"]["int"]["casess"] = misspelt["bench"]["parts"]["int"]["cases"];
  CHECK_THROWS_WITH(
      gpulab::parse_lab_spec(misspelt, red.file.string()),
      Catch::StartsWith(red.file.string() + ": bench.parts.int.casess: unknown key: did you mean 'cases'?"));
  json wrong_part = j;
  wrong_part["bench"]["parts"]["flaot"] = wrong_part["bench"]["parts"]["float"];
  CHECK_THROWS_WITH(gpulab::parse_lab_spec(wrong_part, red.file.string()),
                    Catch::StartsWith(red.file.string() + ": bench.parts.flaot: unknown key: did you mean 'float'?"));
  CHECK(gpulab::parse_lab_spec(j, red.file.string()).bench == j["bench"]);
}

TEST_CASE("the bench table shows time, throughput, the ratio to the baseline and the check") {
  const gpulab::LabSpec red = lab("reduction");
  BenchReport r;
  r.lab = "reduction";
  r.cases = resolve_cases(red, load_bench_spec(red), {"int"}, {});
  r.implementations = {{{"CUB", "b.cu", {}}, "baseline", true},
                       {{"reference", "r.cu", {}}, "reference", true},
                       {{"global atomics", "g.cu", {}}, "progression", true},
                       {{"broken", "x.cu", {}}, "file", true}};
  r.result = json::parse(R"({"device": "NVIDIA H200", "sms": 132, "copy_bandwidth": 4.2e12, "cases": [{"rows": [
      {"implementation": 0, "status": "ok", "median_s": 0.000250, "check": "pass"},
      {"implementation": 1, "status": "ok", "median_s": 0.000260, "check": "pass"},
      {"implementation": 2, "status": "missing"},
      {"implementation": 3, "status": "ok", "median_s": 0.000500, "check": "fail",
       "check_message": "output 'out': 1 of 1 elements differ"}]}]})");
  const std::string text = format_bench_table(r, false, "gpulab bench reduction", "2026-11-23");
  CHECK_THAT(text, Catch::Contains("NVIDIA H200 (132 SMs)"));
  CHECK_THAT(text, Catch::Contains("4200 GB/s"));
  CHECK_THAT(text, Catch::Contains("n=2^28"));
  CHECK_THAT(text, Catch::Contains("0.260 ms"));
  CHECK_THAT(text, Catch::Contains("4130 GB/s"));  // (2^30 + 4) bytes / 0.26 ms
  CHECK_THAT(text, Catch::Contains("0.96x"));
  CHECK_THAT(text, Catch::Contains("0.50x"));
  CHECK_THAT(text, Catch::Contains("(no function)"));
  CHECK_THAT(text, Catch::Contains("✓"));
  CHECK_THAT(text, Catch::Contains("✗"));
  CHECK_THAT(text, Catch::Contains("broken: output 'out': 1 of 1 elements differ"));
  CHECK(!bench_all_correct(r));
  const std::string md = format_bench_table(r, true, "gpulab bench reduction", "2026-11-23");
  CHECK_THAT(md, Catch::Contains("Command: `gpulab bench reduction`"));
  CHECK_THAT(md, Catch::Contains("| int | uniform | n=2^28 | reference | 0.260 ms | 4130 GB/s | 0.96x | ✓ |"));
  r.result["cases"][0]["rows"].erase(3);
  CHECK(bench_all_correct(r));
}
