// gradebook.csv, the class statistics and report.html, from a made-up class.
#include <catch2/catch.hpp>

#include <regex>
#include <sstream>

#include "class_fixture.hpp"
#include "report/class_statistics.hpp"
#include "report/gradebook_csv.hpp"
#include "report/html_report.hpp"
#include "report/review_flags.hpp"

using gpulab_test::made_up_class;

TEST_CASE("gradebook: a row per student, parts, total, status, failure class", "[batch][report]") {
  const std::string csv = gpulab::report::gradebook_csv(made_up_class(false));
  std::istringstream in(csv);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  REQUIRE(lines.size() == 5);
  CHECK(lines[0] ==
        "student,inclusive (50),exclusive (50),total,max_total,status,failure_class,review,names,emails,sid,"
        "submission_id,source\r");
  CHECK(lines[1] == "ada,50,50,100,100,graded,,,,,,,\r");
  CHECK(lines[2] == "\"bob, jr.\",25,25,50,100,graded,timeout,,,,,,\r");  // RFC 4180 quoting
  CHECK(lines[3] == "<carol>,0,0,0,100,compile_error,compile_error,,,,,,\r");
  CHECK(lines[4] == "dave,0,0,0,100,no_submission,no_submission,,,,,,\r");
  CHECK(gpulab::report::csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
}

TEST_CASE("gradebook and report: an implausible speed is flagged for review", "[batch][report]") {
  const auto c = made_up_class(true);
  const auto flags = gpulab::report::review_flags(c);
  REQUIRE(flags.size() == 1);
  CHECK(flags[0].student == "bob, jr.");
  CHECK(flags[0].part == "exclusive");
  const std::string csv = gpulab::report::gradebook_csv(c);
  CHECK_THAT(csv, Catch::Contains("\n\"bob, jr.\",25,25,50,100,graded,timeout,speed for review: exclusive,"));
  CHECK_THAT(csv, Catch::Contains("\nada,50,50,100,100,graded,,,"));
  const std::string html = gpulab::report::html_report(c, "now");
  CHECK_THAT(html, Catch::Contains("<h2>For review</h2>"));
  CHECK_THAT(html, Catch::Contains("300% of the copy bandwidth &lt;sic&gt;"));  // escaped
  // Without flags there is no such section.
  CHECK_THAT(gpulab::report::html_report(made_up_class(false), "now"), !Catch::Contains("For review"));
}

TEST_CASE("statistics: distribution, pass rates, performance, failures", "[batch][report]") {
  const auto s = gpulab::report::class_statistics(made_up_class(true));
  CHECK(s.students == 4);
  CHECK(s.scored == 4);
  CHECK(s.compile_errors == 1);
  CHECK(s.no_submission == 1);
  CHECK(s.full_marks == 1);
  CHECK(s.mean == Approx(37.5));
  CHECK(s.median == Approx(25));
  CHECK(s.histogram == std::vector<int>{2, 0, 0, 0, 0, 1, 0, 0, 0, 1});  // 0, 0, 50, 100
  CHECK(s.part_means == std::vector<double>{18.75, 18.75});
  REQUIRE(s.cases.size() == 4);
  CHECK(s.cases[0].part == "inclusive");
  CHECK(s.cases[0].passed == 2);
  CHECK(s.cases[0].attempted == 2);  // compile errors are not attempts
  CHECK(s.cases[1].label == "dataset 2 (n=33)");
  CHECK(s.cases[1].passed == 1);
  REQUIRE(s.performance.size() == 2);
  CHECK(s.performance[0].ratios.size() == 2);
  CHECK(s.performance[0].ratios[0].first == "bob, jr.");  // ascending
  CHECK(s.performance[0].min == Approx(0.31));
  CHECK(s.performance[0].max == Approx(1.25));
  CHECK(s.performance[0].median == Approx(0.78));
  CHECK(s.performance[0].throughput_unit == "GB/s");
  CHECK(s.performance[1].ratios.size() == 1);
  REQUIRE(s.failures.size() == 4);
  for (const auto& f : s.failures) CHECK(f.submissions == 1);
  CHECK(s.failures[0].kind == gpulab::grade::FailureKind::compile_error);  // ties in class order
  CHECK(s.failures[0].examples[0].first == "<carol>");
}

TEST_CASE("report.html: self-contained, every section, escaped", "[batch][report]") {
  const std::string html = gpulab::report::html_report(made_up_class(false), "2026-11-23T10:00:00Z");
  CHECK_THAT(html, Catch::StartsWith("<!DOCTYPE html>"));
  for (const char* section :
       {"Score distribution", "Pass rate per test case", "Performance ratios", "Most common failures", "Students"}) {
    CHECK_THAT(html, Catch::Contains(section));
  }
  CHECK_THAT(html, Catch::Contains("<svg"));
  CHECK_THAT(html, Catch::Contains("not measured (emulator)"));
  CHECK_THAT(html, Catch::Contains("timed out"));
  CHECK_THAT(html, Catch::Contains("expected &#39;;&#39; &lt;here&gt;"));  // compiler text is escaped
  CHECK_THAT(html, Catch::Contains("&lt;carol&gt;"));
  CHECK_THAT(html, !Catch::Contains("<carol>"));
  // Nothing is fetched: no scripts, no external stylesheets, images or fonts.
  CHECK_THAT(html, !Catch::Contains("<script"));
  CHECK_THAT(html, !Catch::Contains("<link"));
  CHECK_THAT(html, !Catch::Contains("url("));
  CHECK_THAT(html, !Catch::Contains("@import"));
  const std::regex remote(R"((src|href)\s*=\s*"(https?:|//))");
  CHECK_FALSE(std::regex_search(html, remote));
}

TEST_CASE("report.html: performance ratios when the GPU measured them", "[batch][report]") {
  const std::string html = gpulab::report::html_report(made_up_class(true), "now");
  CHECK_THAT(html, Catch::Contains("2 measured: min 0.31, median 0.78, max 1.25"));
  CHECK_THAT(html, Catch::Contains("1523.5"));
  CHECK_THAT(html, Catch::Contains("GB/s"));
  CHECK_THAT(html, !Catch::Contains("not measured (emulator)"));
}
