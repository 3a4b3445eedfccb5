// Tests of the file layer (grader/files) and the submission-choosing rule:
// text that is not UTF-8 becomes valid (U+FFFD in output, \xNN in names, cut on
// character boundaries, JSON dumped without an exception); temporary folders go
// on every path and a killed run's are swept; partial files of a dead process
// are removed; an output folder lock refuses a second holder and is released
// when its process ends; a handed-in folder with several <lab>.cu is refused.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>

#include "files/atomic_file.hpp"
#include "files/folder_lock.hpp"
#include "files/grader_error.hpp"
#include "files/temp_folder.hpp"
#include "files/utf8_text.hpp"
#include "grade/submission_source.hpp"
#include "grader_test_support.hpp"

namespace fs = std::filesystem;
using namespace gpulab;

TEST_CASE("files: text that is not UTF-8 is made valid before it enters a result", "[files]") {
  const std::string latin1 = "caf\xe9 cr\xe8me";
  CHECK_FALSE(files::is_valid_utf8(latin1));
  CHECK(files::valid_utf8(latin1) == "caf\xef\xbf\xbd cr\xef\xbf\xbdme");
  CHECK(files::escaped_name("\xe9l\xe8ve") == "\\xE9l\\xE8ve");
  CHECK(files::escaped_name("plain/name.cu") == "plain/name.cu");
  CHECK(files::is_valid_utf8(std::string("nul\0inside", 10)));
  // Overlong forms and surrogates are invalid too.
  CHECK_FALSE(files::is_valid_utf8("\xc0\xaf"));
  CHECK_FALSE(files::is_valid_utf8("\xed\xa0\x80"));
  // A cut never splits a character: "é" is two bytes.
  CHECK(files::cut_utf8("a\xc3\xa9", 2) == "a");
  CHECK(files::cut_utf8("a\xc3\xa9", 3) == "a\xc3\xa9");
  const nlohmann::json j = {{"output", "binary \xff\xfe end"}};
  CHECK_THROWS(j.dump());
  const std::string dumped = files::dump_json(j);
  CHECK(files::is_valid_utf8(dumped));
  CHECK(nlohmann::json::parse(dumped)["output"] == "binary \xef\xbf\xbd\xef\xbf\xbd end");
}

TEST_CASE("files: a temporary folder is removed on every path, a killed run's by the next sweep", "[files]") {
  gpulab_test::TempDir parent;
  fs::path kept;
  try {
    files::TempFolder t("unit", parent.path());
    kept = t.path();
    CHECK(fs::is_directory(kept));
    throw std::runtime_error("an error half-way");
  } catch (const std::runtime_error&) {}
  CHECK_FALSE(fs::exists(kept));
  // A child makes a folder and is killed before it can remove it.
  const pid_t child = fork();
  if (child == 0) {
    files::TempFolder t("unit", parent.path());
    t.release();
    files::TempFolder dashed("sandbox-stage", parent.path());  // purposes may hold dashes
    dashed.release();
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  const fs::path left = parent.path() / ("gpulab-unit-" + std::to_string(child) + "-");
  size_t before = 0;
  for (const auto& e : fs::directory_iterator(parent.path())) before += e.path().string().rfind(left.string(), 0) == 0;
  CHECK(before == 1);
  files::TempFolder mine("unit", parent.path());  // a live process's folder is never swept
  CHECK(files::sweep_stale_temp_folders(parent.path()) == 2);
  CHECK(fs::is_directory(mine.path()));
}

TEST_CASE("files: partial files of a dead process are removed, those of a live one kept", "[files]") {
  gpulab_test::TempDir dir;
  const pid_t child = fork();
  if (child == 0) _exit(0);
  int status = 0;
  waitpid(child, &status, 0);
  gpulab_test::write_file(dir / ("alice.json.tmp-" + std::to_string(child) + "-0"), "{\"half");
  gpulab_test::write_file(dir / ("bob.json.tmp-" + std::to_string(getpid()) + "-3"), "{");
  gpulab_test::write_file(dir / "carol.json", "{}");
  CHECK(files::remove_stale_partial_files(dir.path()) == 1);
  CHECK_FALSE(fs::exists(dir / ("alice.json.tmp-" + std::to_string(child) + "-0")));
  CHECK(fs::exists(dir / ("bob.json.tmp-" + std::to_string(getpid()) + "-3")));
  CHECK(fs::exists(dir / "carol.json"));
}

TEST_CASE("files: an output folder lock refuses a second holder and goes with its process", "[files]") {
  gpulab_test::TempDir dir;
  int ready[2], done[2];
  REQUIRE(pipe(ready) == 0);
  REQUIRE(pipe(done) == 0);
  const pid_t child = fork();
  if (child == 0) {
    files::FolderLock lock;
    std::string holder;
    const bool got = lock.try_lock(dir.path(), ".lock", files::FolderLock::Mode::exclusive, holder);
    (void)!write(ready[1], got ? "y" : "n", 1);
    char c;
    (void)!read(done[0], &c, 1);
    _exit(0);  // the lock is not released by hand: the kernel drops it with the process
  }
  char c = 0;
  REQUIRE(read(ready[0], &c, 1) == 1);
  REQUIRE(c == 'y');
  files::FolderLock mine;
  std::string holder;
  CHECK_FALSE(mine.try_lock(dir.path(), ".lock", files::FolderLock::Mode::exclusive, holder));
  CHECK(holder == "process " + std::to_string(child));
  CHECK_FALSE(mine.try_lock(dir.path(), ".lock", files::FolderLock::Mode::shared, holder));
  (void)!write(done[1], "x", 1);
  int status = 0;
  waitpid(child, &status, 0);
  CHECK(mine.try_lock(dir.path(), ".lock", files::FolderLock::Mode::shared, holder));
  files::FolderLock other;  // shared holders go together (the shards of one class)
  CHECK(other.try_lock(dir.path(), ".lock", files::FolderLock::Mode::shared, holder));
  for (int fd : {ready[0], ready[1], done[0], done[1]}) close(fd);
}

TEST_CASE("files: a pipe or device as the target is written into, never replaced by a file", "[files]") {
  const gpulab_test::TempDir t;
  const fs::path fifo = t / "results.fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  std::string received;
  std::thread reader([&] { received = gpulab_test::read_file(fifo); });
  gpulab::files::write_file_atomically(fifo, "{\"score\": 1}\n");
  reader.join();
  CHECK(received == "{\"score\": 1}\n");
  CHECK(fs::is_fifo(fifo));  // still the pipe: a rename would have put a plain file in its place
}

TEST_CASE("files: an unwritable output folder is a grader error naming it", "[files]") {
  // A missing folder stands for an unwritable one (permissions do not stop root, who runs CI).
  files::FolderLock lock;
  std::string holder;
  CHECK_THROWS_AS(lock.try_lock("/nonexistent/gpulab", ".lock", files::FolderLock::Mode::exclusive, holder),
                  files::GraderError);
  CHECK_THROWS_WITH(files::write_file_atomically("/nonexistent/gpulab/x.json", "{}"),
                    Catch::Contains("/nonexistent/gpulab/x.json"));
}

TEST_CASE("submission: the file to grade is chosen by one rule, and ambiguity is refused", "[files]") {
  using grade::choose_submission_source;
  const std::string name = "scan.cu";
  CHECK(choose_submission_source("s", {"src/scan.cu", "notes.txt"}, name).file == fs::path("s/src/scan.cu"));
  CHECK(choose_submission_source("s", {"mine.cu"}, name).file == fs::path("s/mine.cu"));
  const auto two = choose_submission_source("s", {"backup/scan.cu", "src/scan.cu"}, name);
  CHECK(two.file.empty());
  CHECK_THAT(two.problem, Catch::Contains("backup/scan.cu, src/scan.cu") && Catch::Contains("several files are named"));
  const auto unnamed = choose_submission_source("s", {"a.cu", "b.cu"}, name);
  CHECK(unnamed.file.empty());
  CHECK_THAT(unnamed.problem, Catch::Contains("a.cu, b.cu") && Catch::Contains("none named scan.cu"));
  CHECK_THAT(choose_submission_source("s", {"README"}, name).problem, Catch::Contains("no .cu file"));
  const auto odd = choose_submission_source("s", {"x\xff/scan.cu", "y/scan.cu"}, name);
  CHECK(files::is_valid_utf8(odd.problem));
  CHECK_THAT(odd.problem, Catch::Contains("x\\xFF/scan.cu"));
}
