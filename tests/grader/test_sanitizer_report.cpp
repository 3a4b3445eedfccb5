// Tests of the compute-sanitizer output parser (grader/grade/sanitizer_report)
// on output recorded on an H100 with CUDA 13 (tests/gpu/sanitizer_samples.cu
// run under each tool by scripts/device-check.sh; the longer logs cut to their
// first two or three findings): every finding names the kernel, file and line, and repeats
// collapse into one line with a count.
#include <catch2/catch.hpp>

#include "grade/sanitizer_report.hpp"
#include "grader_test_support.hpp"

using gpulab::grade::describe_finding;
using gpulab::grade::parse_sanitizer_output;
using gpulab::grade::sanitizer_incomplete;

namespace {
std::string recorded(const std::string& tool) {
  return gpulab_test::read_file(std::string(GPULAB_TEST_SOURCE_DIR) + "/tests/grader/data/sanitizer/" + tool + ".txt");
}
}  // namespace

TEST_CASE("sanitizer report: memcheck out-of-bounds reads collapse into one finding", "[sanitizer]") {
  const auto f = parse_sanitizer_output("memcheck", recorded("memcheck"));
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "Invalid __global__ read of size 4 bytes");
  CHECK(f[0].kernel == "read_past_end");
  CHECK(f[0].file == "sanitizer_samples.cu");
  CHECK(f[0].line == 9);
  CHECK(f[0].count == 2);
  CHECK(f[0].where == "thread (232,0,0) in block (3,0,0)");
  CHECK_THAT(f[0].detail, Catch::Contains("is out of bounds and is 1 bytes after the nearest allocation"));
  CHECK_THAT(describe_finding(f[0]), Catch::StartsWith("memcheck: Invalid __global__ read of size 4 bytes in "
                                                       "read_past_end at sanitizer_samples.cu:9 (thread (232,0,0)"));
  CHECK_THAT(describe_finding(f[0]), Catch::EndsWith("[2 times]"));
}

TEST_CASE("sanitizer report: a racecheck hazard names both accesses by line", "[sanitizer]") {
  const auto f = parse_sanitizer_output("racecheck", recorded("racecheck"));
  REQUIRE(f.size() == 1);
  CHECK(f[0].message == "Race reported between Write access");
  CHECK(f[0].kernel == "shared_race");
  CHECK(f[0].line == 14);
  CHECK(f[0].detail ==
        "and Write access at sanitizer_samples.cu:14 [64 hazards] "
        "and Read access at sanitizer_samples.cu:15 [384 hazards]");
}

TEST_CASE("sanitizer report: synccheck and initcheck findings", "[sanitizer]") {
  const auto sync = parse_sanitizer_output("synccheck", recorded("synccheck"));
  REQUIRE(sync.size() == 1);
  CHECK(sync[0].message == "Barrier error detected. Divergent thread(s) in warp.");
  CHECK(sync[0].kernel == "divergent_barrier");
  CHECK(sync[0].line == 19);
  CHECK(sync[0].count >= 2);
  const auto init = parse_sanitizer_output("initcheck", recorded("initcheck"));
  REQUIRE(init.size() == 1);
  CHECK(init[0].message == "Uninitialized __global__ memory read of size 4 bytes");
  CHECK(init[0].kernel == "read_uninitialised");
  CHECK(init[0].line == 23);
}

TEST_CASE("sanitizer report: a clean run has no findings", "[sanitizer]") {
  const std::string clean = "========= COMPUTE-SANITIZER\nsome program output\n========= ERROR SUMMARY: 0 errors\n";
  CHECK(parse_sanitizer_output("memcheck", clean).empty());
  CHECK(parse_sanitizer_output("racecheck",
                               "========= COMPUTE-SANITIZER\n========= RACECHECK SUMMARY: 0 hazards "
                               "displayed (0 errors, 0 warnings)\n")
            .empty());
}

TEST_CASE("sanitizer report: a tool that never reached its summary is reported, not read as clean", "[sanitizer]") {
  CHECK(sanitizer_incomplete("memcheck", recorded("memcheck"), 0, 0).empty());
  CHECK(sanitizer_incomplete("racecheck", recorded("racecheck"), 0, 0).empty());
  const std::string cut =
      "========= COMPUTE-SANITIZER\n========= Error: Target application terminated before first "
      "instrumented API call\n";
  CHECK(parse_sanitizer_output("memcheck", cut).empty() == false);  // the error line is a headline of its own
  const std::string why = sanitizer_incomplete("memcheck", cut, 1, 0);
  CHECK(why.find("memcheck: compute-sanitizer did not run to its summary (it exited with code 1)") == 0);
  CHECK(why.find("Target application terminated before first instrumented API call") != std::string::npos);
  CHECK(sanitizer_incomplete("initcheck", "", -1, 9).find("stopped by signal 9") != std::string::npos);
  CHECK(sanitizer_incomplete("initcheck", "", -1, 9).find("(none)") != std::string::npos);
}

TEST_CASE("sanitizer report: templates keep their arguments, files lose their folders", "[sanitizer]") {
  const std::string text =
      "========= Invalid __shared__ write of size 4 bytes\n"
      "=========     at void scan_tiles<float, (bool)0>(const T1 *, T1 *, int, const T1 *)+0x1f0 in /tmp/x/scan.cu:77\n"
      "=========     by thread (5,0,0) in block (2,0,0)\n";
  const auto f = parse_sanitizer_output("memcheck", text);
  REQUIRE(f.size() == 1);
  CHECK(f[0].kernel == "void scan_tiles<float, (bool)0>");
  CHECK(f[0].file == "scan.cu");
  CHECK(f[0].line == 77);
}
