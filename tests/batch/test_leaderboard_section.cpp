// report.html's leaderboard (grader/report/leaderboard_section,
// leaderboard_pseudonyms) from a made-up class graded on a GPU: the ranking
// (fastest first, ties shared, only scored speeds), the reasons others are not
// ranked, stable pseudonyms by default and names only when asked, the note on
// an emulator class, and the salt and mapping files a batch folder keeps.
#include <catch2/catch.hpp>

#include <regex>

#include "files/atomic_file.hpp"
#include "grader_test_support.hpp"
#include "report/class_reports.hpp"
#include "report/leaderboard_pseudonyms.hpp"
#include "report/leaderboard_section.hpp"

namespace fs = std::filesystem;
using gpulab::report::ClassLeaderboard;
using gpulab_test::TempDir;
using nlohmann::json;

namespace {
using Speed = std::optional<gpulab::grade::PerformanceResult>;

Speed speed(const std::string& status, double seconds, double gbps, double ratio = 0) {
  gpulab::grade::PerformanceResult p;
  p.status = json(status).get<gpulab::grade::PerformanceStatus>();
  p.seconds = seconds;
  p.rate = gbps;
  p.rate_unit = "GB/s";
  p.ratio = ratio;
  p.device = "NVIDIA H100 80GB HBM3";
  return p;
}

gpulab::batch::StudentEntry student(const std::string& name, const std::string& status, const Speed& inclusive,
                                    const Speed& exclusive, const std::string& backend = "cuda") {
  gpulab::batch::StudentEntry e;
  e.record.student = name;
  e.record.status = json(status).get<gpulab::batch::GradingStatus>();
  e.record.backend = backend;
  if (e.record.has_result()) {
    gpulab::grade::ResultsRecord r;
    r.compiled = status == "graded";
    r.backend = backend;
    if (status == "graded") {
      gpulab::grade::PartRecord a, b;
      a.name = "inclusive";
      b.name = "exclusive";
      a.score = b.score = 50;
      a.performance = inclusive;
      b.performance = exclusive;
      r.parts = {a, b};
    }
    e.result = r;
  }
  return e;
}

// Six students of the scan lab on a GPU: bob fastest on inclusive, ada and fay tied, eve
// implausibly fast (not ranked), carol does not compile, dave handed in nothing.
gpulab::batch::ClassResults gpu_class() {
  gpulab::batch::ClassResults c;
  c.lab = "scan";
  c.parts = {{"inclusive", 65}, {"exclusive", 65}};
  c.students = {
      student("ada", "graded", speed("scored", 0.0008, 1342.2, 1.1), speed("scored", 0.0011, 976.1, 0.9)),
      student("bob", "graded", speed("scored", 0.0005, 2147.5, 1.7), speed("failed", 0, 0)),
      student("carol", "compile_error", std::nullopt, std::nullopt),
      student("dave", "no_submission", std::nullopt, std::nullopt, ""),
      student("eve", "graded", speed("implausible", 0.00001, 107374.2), speed("not_measured", 0.002, 536.9)),
      student("fay", "graded", speed("scored", 0.0008, 1342.2, 1.1), speed("scored", 0.0030, 357.9, 0.3)),
  };
  return c;
}

std::vector<std::string> shown(const gpulab::report::PartLeaderboard& p) {
  std::vector<std::string> v;
  for (const auto& r : p.rows) v.push_back(std::to_string(r.rank) + " " + r.shown);
  return v;
}
}  // namespace

TEST_CASE("leaderboard section: fastest first, ties share a rank, only scored speeds rank", "[batch][leaderboard]") {
  const ClassLeaderboard b = gpulab::report::class_leaderboard(gpu_class());
  CHECK(b.measured);
  CHECK_FALSE(b.pseudonyms);
  REQUIRE(b.parts.size() == 2);
  CHECK(b.parts[0].part == "inclusive");
  CHECK(b.parts[0].rate_unit == "GB/s");
  CHECK(shown(b.parts[0]) == std::vector<std::string>{"1 bob", "2 ada", "2 fay"});  // eve's 0.01 ms is not ranked
  CHECK(b.parts[0].rows[0].ms == Approx(0.5));
  CHECK(b.parts[0].rows[0].rate == Approx(2147.5));
  CHECK(shown(b.parts[1]) == std::vector<std::string>{"1 ada", "2 fay"});
  CHECK(b.parts[0].not_ranked == std::map<std::string, int>{{"did not compile", 1},
                                                            {"no file to grade", 1},
                                                            {"implausible speed (for review)", 1}});
  CHECK(b.parts[1].not_ranked.at("failed (a correctness case, or a check of the timed calls)") == 1);
  CHECK(b.parts[1].not_ranked.at("not measured") == 1);
  CHECK(b.ranked_students() == 3);
  CHECK(b.devices == std::vector<std::string>{"NVIDIA H100 80GB HBM3"});
}

TEST_CASE("leaderboard section: pseudonyms by default, stable, and names only when asked", "[batch][leaderboard]") {
  using gpulab::report::pseudonym;
  const std::string salt = "0123456789abcdef0123456789abcdef";
  CHECK(pseudonym(salt, "ada") == pseudonym(salt, "ada"));
  CHECK(std::regex_match(pseudonym(salt, "ada"), std::regex("anon-[0-9a-f]{10}")));
  CHECK(pseudonym(salt, "ada") != pseudonym(salt, "bob"));
  CHECK(pseudonym(salt, "ada") != pseudonym("fedcba9876543210fedcba9876543210", "ada"));  // another folder's salt

  ClassLeaderboard b = gpulab::report::class_leaderboard(gpu_class());
  const std::string named = gpulab::report::leaderboard_section(b);
  CHECK_THAT(named, Catch::Contains("<h2>Leaderboard</h2>") && Catch::Contains("<td>bob</td>") &&
                        Catch::Contains("shown by name"));
  gpulab::report::use_pseudonyms(b, salt);
  CHECK(b.pseudonyms);
  const std::string anonymous = gpulab::report::leaderboard_section(b);
  for (const char* name : {"ada", "bob", "fay", "eve", "carol", "dave"}) {
    CAPTURE(name);
    CHECK_THAT(anonymous, !Catch::Contains(std::string(">") + name + "<"));
  }
  CHECK_THAT(anonymous, Catch::Contains("<td>" + pseudonym(salt, "bob") + "</td>"));
  CHECK(b.parts[0].rows[0].shown == pseudonym(salt, "bob"));  // the order stays by time
  CHECK(b.parts[0].rows[0].student == "bob");
  CHECK_THAT(anonymous, Catch::Contains("leaderboard-pseudonyms.csv"));
  CHECK_THAT(anonymous, Catch::Contains("Not ranked: 1 did not compile; 1 implausible speed (for review); 1 no file "
                                        "to grade."));
}

TEST_CASE("leaderboard section: an emulator class has nothing to rank and says why", "[batch][leaderboard]") {
  gpulab::batch::ClassResults c = gpu_class();
  for (auto& e : c.students) {
    e.record.backend = e.record.backend.empty() ? "" : "emu";
    if (e.result)
      for (gpulab::grade::PartRecord& p : e.result->parts) p.performance.reset();  // the emulator scores no speed
  }
  const ClassLeaderboard b = gpulab::report::class_leaderboard(c);
  CHECK_FALSE(b.measured);
  CHECK(b.parts.empty());
  CHECK_THAT(gpulab::report::leaderboard_section(b), Catch::Contains("speed is measured on a GPU only"));
}

TEST_CASE("leaderboard section: report.html, the folder's salt and the mapping back", "[batch][leaderboard]") {
  TempDir d;
  const auto c = gpu_class();
  gpulab::report::write_class_reports(d.path(), c);
  REQUIRE(fs::exists(d / "leaderboard-salt"));
  CHECK((fs::status(d / "leaderboard-salt").permissions() & fs::perms::others_read) == fs::perms::none);
  const std::string salt = gpulab::report::leaderboard_salt(d.path());
  CHECK(salt.size() == 32);
  const std::string html = gpulab::files::read_whole_file(d / "report.html");
  CHECK_THAT(html, Catch::Contains("<h2>Leaderboard</h2>") &&
                       Catch::Contains("<td>" + gpulab::report::pseudonym(salt, "bob") + "</td>"));
  const std::string csv = gpulab::files::read_whole_file(d / "leaderboard-pseudonyms.csv");
  CHECK_THAT(csv, Catch::StartsWith("student,pseudonym\r\nada," + gpulab::report::pseudonym(salt, "ada") + "\r\n"));
  CHECK_THAT(csv, Catch::Contains("\r\ndave," + gpulab::report::pseudonym(salt, "dave") + "\r\n"));

  // Written again (a re-run of the batch): the same salt, so the same pseudonyms.
  gpulab::report::write_class_reports(d.path(), c);
  CHECK(gpulab::report::leaderboard_salt(d.path()) == salt);
  CHECK(gpulab::files::read_whole_file(d / "leaderboard-pseudonyms.csv") == csv);

  // --leaderboard-names: names in the section.
  TempDir named;
  gpulab::report::write_class_reports(named.path(), c, nullptr, true);
  CHECK_THAT(gpulab::files::read_whole_file(named / "report.html"),
             Catch::Contains("<td class=\"n\">2</td><td>ada</td>"));
  CHECK_FALSE(fs::exists(named / "leaderboard-pseudonyms.csv"));
}
