// Finding a class's submissions: one folder (or .cu file) per student,
// Gradescope's export (also inside its single top folder), the file to grade,
// unique labels, and a content hash that follows every handed-in file.
#include <catch2/catch.hpp>

#include "batch/class_roster.hpp"
#include "grader_test_support.hpp"

namespace fs = std::filesystem;
using gpulab::batch::discover_submissions;
using gpulab_test::TempDir;
using gpulab_test::write_file;

namespace {
const gpulab::batch::Submission& find(const gpulab::batch::Roster& r, const std::string& student) {
  for (const auto& s : r.submissions)
    if (s.student == student) return s;
  FAIL("no student " << student);
  throw 0;
}
}  // namespace

TEST_CASE("roster: folders and .cu files, the file to grade", "[batch][roster]") {
  TempDir d;
  fs::create_directories(d / "alice/src");
  write_file(d / "alice/src/scan.cu", "// alice");
  write_file(d / "alice/notes.txt", "notes");
  fs::create_directories(d / "bob");
  write_file(d / "bob/helper.cu", "// helper");
  write_file(d / "bob/scan.cu", "// bob");
  fs::create_directories(d / "carol");
  write_file(d / "carol/a.cu", "");
  write_file(d / "carol/b.cu", "");
  fs::create_directories(d / "dave");
  write_file(d / "dave/report.pdf", "%PDF");
  write_file(d / "erin.cu", "// erin");
  fs::create_directories(d / ".git");
  fs::create_symlink(d / "bob/scan.cu", d / "dave/scan.cu");  // a link out of the folder is not a submission
  write_file(d / "README.txt", "not a student");

  const auto r = discover_submissions(d.path(), "scan.cu");
  CHECK_FALSE(r.gradescope_export);
  REQUIRE(r.submissions.size() == 5);
  CHECK(r.submissions[0].student == "alice");                 // sorted
  CHECK(find(r, "alice").source == d / "alice/src/scan.cu");  // the only .cu file, in a sub-folder
  CHECK(find(r, "bob").source == d / "bob/scan.cu");          // the lab's file name wins
  CHECK(find(r, "carol").source.empty());
  CHECK_THAT(find(r, "carol").problem, Catch::Contains("a.cu, b.cu") && Catch::Contains("scan.cu"));
  CHECK(find(r, "dave").source.empty());
  CHECK_THAT(find(r, "dave").problem, Catch::Contains("no .cu file"));
  CHECK(find(r, "erin").source == d / "erin.cu");
}

TEST_CASE("roster: the content hash covers every file handed in", "[batch][roster]") {
  TempDir d;
  fs::create_directories(d / "alice");
  write_file(d / "alice/scan.cu", "// v1");
  write_file(d / "alice/util.cuh", "// helper v1");
  const std::string h1 = discover_submissions(d.path(), "scan.cu").submissions[0].content_hash;
  CHECK(discover_submissions(d.path(), "scan.cu").submissions[0].content_hash == h1);  // stable
  write_file(d / "alice/util.cuh", "// helper v2");
  const std::string h2 = discover_submissions(d.path(), "scan.cu").submissions[0].content_hash;
  CHECK(h2 != h1);
  fs::rename(d / "alice/util.cuh", d / "alice/util2.cuh");  // a renamed file is a change too
  CHECK(discover_submissions(d.path(), "scan.cu").submissions[0].content_hash != h2);
}

TEST_CASE("roster: Gradescope's export, named from its metadata", "[batch][roster][gradescope]") {
  TempDir d;
  const fs::path root = d / "assignment_77_export";
  fs::create_directories(root / "submission_11");
  fs::create_directories(root / "submission_12");
  fs::create_directories(root / "submission_13");
  fs::create_directories(root / "submission_14");
  write_file(root / "submission_11/scan.cu", "// 11");
  write_file(root / "submission_12/scan.cu", "// 12");
  write_file(root / "submission_13/scan.cu", "// 13");
  write_file(root / "submission_14/scan.cu", "// 14");
  write_file(root / "submission_metadata.yml", R"(submission_11:
  :submitters:
  - :name: Ada Lovelace
    :sid: '1'
    :email: ada@example.edu
submission_12:
  :submitters:
  - :name: Pair One
    :email: one@example.edu
  - :name: Pair Two
    :email: two@example.edu
submission_13:
  :submitters:
  - :name: Ada Again
    :email: ada@example.edu
submission_99:
  :submitters:
  - :name: Gone
)");
  // Given the folder the zip unpacked into, gpulab finds the export inside it.
  const auto r = discover_submissions(d.path(), "scan.cu");
  CHECK(r.gradescope_export);
  CHECK(r.root == root);
  REQUIRE(r.submissions.size() == 4);
  const auto& pair = find(r, "one@example.edu+two@example.edu");
  CHECK(pair.submission_id == "submission_12");
  REQUIRE(pair.submitters.size() == 2);
  CHECK(pair.submitters[1].name == "Pair Two");
  // Two submissions of one student stay apart, each named by its submission.
  CHECK(find(r, "ada@example.edu-submission_11").source == root / "submission_11/scan.cu");
  CHECK(find(r, "ada@example.edu-submission_13").submission_id == "submission_13");
  // A folder the metadata does not list is graded under its own name, with a warning; and vice versa.
  CHECK(find(r, "submission_14").submitters.empty());
  REQUIRE(r.warnings.size() == 2);
  CHECK_THAT(r.warnings[0] + r.warnings[1], Catch::Contains("submission_14") && Catch::Contains("submission_99"));
}

TEST_CASE("roster: labels are safe file names", "[batch][roster]") {
  CHECK(gpulab::batch::safe_label("Ada Lovelace/../x") == "Ada_Lovelace_.._x");
  CHECK(gpulab::batch::safe_label(".hidden") == "_hidden");
  CHECK(gpulab::batch::safe_label("") == "_");
  CHECK(gpulab::batch::safe_label("o'brien@uni.edu") == "o_brien@uni.edu");
}

TEST_CASE("roster: a missing or empty folder is a clear error", "[batch][roster]") {
  TempDir d;
  CHECK_THROWS_WITH(discover_submissions(d / "nope", "scan.cu"), Catch::Contains("is not a folder"));
  CHECK_THROWS_WITH(discover_submissions(d.path(), "scan.cu"), Catch::Contains("holds no submissions"));
}
