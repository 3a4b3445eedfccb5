// Atomic writes, batch records (JSON round trip, damaged records), and the key
// that decides whether a submission is graded again.
#include <catch2/catch.hpp>

#include "files/atomic_file.hpp"
#include "batch/student_record.hpp"
#include "batch/submission_key.hpp"
#include "grader_test_support.hpp"

namespace fs = std::filesystem;
using gpulab_test::ScopedEnv;
using gpulab_test::TempDir;
using nlohmann::json;

TEST_CASE("atomic write: new content in place, no temporary left", "[batch][records]") {
  TempDir d;
  const fs::path f = d / "alice.json";
  gpulab::files::write_file_atomically(f, "one");
  gpulab::files::write_file_atomically(f, "two");
  CHECK(gpulab_test::read_file(f) == "two");
  size_t entries = 0;
  for (const auto& e : fs::directory_iterator(d.path())) entries += e.path().filename() == "alice.json" ? 1 : 100;
  CHECK(entries == 1);
  CHECK_THROWS_WITH(gpulab::files::write_file_atomically(d / "no/such/dir/x.json", "x"),
                    Catch::Contains("no/such/dir/x.json") && Catch::Contains("folder exists"));
}

TEST_CASE("records: round trip, and a damaged one is reported", "[batch][records]") {
  TempDir d;
  gpulab::batch::StudentRecord r;
  r.student = "ada@example.edu";
  r.key = "k1";
  r.status = gpulab::batch::GradingStatus::graded;
  r.failure_class = gpulab::grade::FailureKind::timeout;
  r.failure_classes = {{gpulab::grade::FailureKind::timeout, "int: dataset 3: timed out"}};
  r.submitters = {{"Ada", "ada@example.edu", "1"}};
  r.score = 42.5;
  r.max_score = 100;
  r.timing.compile_s = 1.5;
  r.timing.run_s = 2.5;
  fs::create_directories(d / "records");
  gpulab::files::write_file_atomically(gpulab::batch::record_path(d.path(), r.student),
                                       gpulab::batch::record_to_json(r).dump());
  const auto back = gpulab::batch::read_record(d.path(), r.student);
  REQUIRE(back);
  CHECK(back->key == "k1");
  CHECK(back->status == r.status);
  CHECK(back->failure_class == r.failure_class);
  CHECK(back->failure_classes == r.failure_classes);
  CHECK(gpulab::batch::record_to_json(r)["status"] == "graded");
  CHECK(gpulab::batch::record_to_json(r)["failure_class"] == "timeout");
  CHECK(back->submitters[0].email == "ada@example.edu");
  CHECK(back->score == 42.5);
  CHECK(back->timing.run_s == 2.5);
  CHECK(back->has_result());
  CHECK(gpulab::batch::read_records(d.path()).size() == 1);

  gpulab_test::write_file(d / "records/bob.json", "{ not json");
  CHECK_THROWS_WITH(gpulab::batch::read_records(d.path()), Catch::Contains("bob.json") && Catch::Contains("damaged"));
  CHECK_FALSE(gpulab::batch::read_record(d.path(), "bob"));  // for resuming: simply graded again

  // Everything passed: no class, written as "" as before.
  r.failure_class = gpulab::grade::FailureKind::none;
  r.failure_classes.clear();
  CHECK(gpulab::batch::record_to_json(r)["failure_class"] == "");
  CHECK(gpulab::batch::record_from_json(gpulab::batch::record_to_json(r), "r.json").failure_class ==
        gpulab::grade::FailureKind::none);
  // A status or class this gpulab does not know is refused, naming the key.
  nlohmann::json odd = gpulab::batch::record_to_json(r);
  odd["status"] = "gradded";
  CHECK_THROWS_WITH(gpulab::batch::record_from_json(odd, "odd.json"),
                    Catch::Contains("odd.json") && Catch::Contains("status") && Catch::Contains("gradded"));
  odd = gpulab::batch::record_to_json(r);
  odd["failure_class"] = "too_slow";
  CHECK_THROWS_WITH(gpulab::batch::record_from_json(odd, "odd.json"),
                    Catch::Contains("failure_class") && Catch::Contains("too_slow"));
}

TEST_CASE("key: changes with the content, the lab version, the backend and the options", "[batch][records]") {
  ScopedEnv no_secret("GPULAB_KEY_TEST_SECRET", std::nullopt);
  gpulab::LabSpec lab;
  lab.lab = "scan";
  lab.version = "1";
  lab.hidden_seed_env = "GPULAB_KEY_TEST_SECRET";
  gpulab::grade::GradeOptions o;
  using gpulab::batch::submission_key;
  const std::string base = submission_key("hash-a", lab, o);
  CHECK(submission_key("hash-a", lab, o) == base);
  CHECK(submission_key("hash-b", lab, o) != base);
  gpulab::LabSpec v2 = lab;
  v2.version = "2";
  CHECK(submission_key("hash-a", v2, o) != base);
  auto changed = [&](auto edit) {
    gpulab::grade::GradeOptions x = o;
    edit(x);
    return submission_key("hash-a", lab, x) != base;
  };
  CHECK(changed([](auto& x) { x.backend = gpulab::toolchain::Backend::cuda; }));
  CHECK(changed([](auto& x) { x.include_large = false; }));
  CHECK(changed([](auto& x) { x.only_parts = {"inclusive"}; }));
  CHECK_FALSE(changed([](auto& x) { x.use_cache = false; }));  // how it is built does not change the result

  // The hidden seed: with a secret the key changes, and changes again with another secret;
  // the record holds a fingerprint, never the secret.
  CHECK(gpulab::batch::hidden_seed_fingerprint(lab, o).empty());
  ScopedEnv secret("GPULAB_KEY_TEST_SECRET", std::string("correct horse"));
  const std::string with_secret = submission_key("hash-a", lab, o);
  CHECK(with_secret != base);
  const std::string fp = gpulab::batch::hidden_seed_fingerprint(lab, o);
  CHECK(fp.size() == 16);
  CHECK(fp.find("horse") == std::string::npos);
  ScopedEnv other("GPULAB_KEY_TEST_SECRET", std::string("battery staple"));
  CHECK(submission_key("hash-a", lab, o) != with_secret);
  gpulab::grade::GradeOptions no_hidden = o;
  no_hidden.include_hidden = false;
  CHECK(submission_key("hash-a", lab, no_hidden) == base);
}
