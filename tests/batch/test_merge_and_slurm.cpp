// Merging batch folders (Slurm shards): records and results copied, missing
// students of the plan named, conflicts refused; the sbatch scripts; sharding.
#include <catch2/catch.hpp>

#include "files/atomic_file.hpp"
#include "batch/batch_runner.hpp"
#include "batch/merge_batches.hpp"
#include "batch/progress_bar.hpp"
#include "grader_test_support.hpp"
#include "slurm/slurm_job.hpp"

namespace fs = std::filesystem;
using gpulab_test::TempDir;
using nlohmann::json;

namespace {
void put_student(const fs::path& dir, const std::string& name, const std::string& key, const std::string& lab = "scan",
                 const std::string& when = "2026-11-23T10:00:00Z") {
  gpulab::batch::StudentRecord r;
  r.student = name;
  r.key = key;
  r.status = gpulab::batch::GradingStatus::graded;
  r.lab = lab;
  r.graded_at = when;
  fs::create_directories(dir / "records");
  gpulab::files::write_file_atomically(gpulab::batch::record_path(dir, name), gpulab::batch::record_to_json(r).dump());
  gpulab::files::write_file_atomically(gpulab::batch::result_path(dir, name), json{{"score", 1}, {"who", name}}.dump());
}
}  // namespace

TEST_CASE("merge: shards into one folder, missing students named", "[batch][merge]") {
  TempDir d;
  put_student(d / "a", "ada", "k-ada");
  put_student(d / "b", "bob", "k-bob");
  put_student(d / "b", "ada", "k-ada", "scan", "2026-11-24T00:00:00Z");  // the same grading twice: fine
  fs::create_directories(d / "a/slurm");
  gpulab_test::write_file(d / "a/slurm/plan.json", json{{"lab", "scan"}, {"students", {"ada", "bob", "carol"}}}.dump());
  const auto m = gpulab::batch::merge_batches({d / "a", d / "b"}, d / "a");
  CHECK(m.lab == "scan");
  CHECK(m.students == std::vector<std::string>{"ada", "bob", "carol"});
  CHECK(m.missing == std::vector<std::string>{"carol"});
  CHECK(fs::exists(d / "a/bob.json"));
  CHECK(fs::exists(d / "a/records/bob.json"));
  CHECK(gpulab::batch::read_record(d / "a", "ada")->graded_at == "2026-11-24T00:00:00Z");  // the newer one
}

TEST_CASE("merge: refuses different gradings of one student and mixed labs", "[batch][merge]") {
  TempDir d;
  put_student(d / "a", "ada", "k1");
  put_student(d / "b", "ada", "k2");
  CHECK_THROWS_WITH(gpulab::batch::merge_batches({d / "a", d / "b"}, d / "out"),
                    Catch::Contains("'ada' was graded differently"));
  put_student(d / "c", "bob", "k3", "matmul");
  CHECK_THROWS_WITH(gpulab::batch::merge_batches({d / "a", d / "c"}, d / "out"),
                    Catch::Contains("lab 'matmul'") && Catch::Contains("one lab at a time"));
  CHECK_THROWS_WITH(gpulab::batch::merge_batches({d / "nothing-here"}, d / "out"), Catch::Contains("not a folder"));
}

TEST_CASE("shards: round robin over the sorted class, every student once", "[batch][slurm]") {
  gpulab::batch::Roster r;
  for (const char* s : {"a", "b", "c", "d", "e"}) {
    gpulab::batch::Submission one;
    one.student = s;
    r.submissions.push_back(one);
  }
  std::vector<std::string> all;
  for (unsigned i = 0; i < 3; ++i)
    for (const auto* s : gpulab::batch::shard_of(r, i, 3)) all.push_back(std::to_string(i) + s->student);
  CHECK(all == std::vector<std::string>{"0a", "0d", "1b", "1e", "2c"});
  CHECK(gpulab::batch::shard_of(r, 0, 1).size() == 5);
}

TEST_CASE("slurm: the job array and merge scripts", "[batch][slurm]") {
  gpulab::slurm::SlurmRequest r;
  r.lab = "scan";
  r.gpulab = "/opt/gpulab/bin/gpulab";
  r.submissions = "/shared/class it's/subs";
  r.out = "/shared/out";
  r.shards = 8;
  r.jobs = 4;
  r.partition = "gpu";
  r.gres = "gpu:1";
  r.time_limit = "01:00:00";
  r.grade_args = {"--backend", "cuda", "--no-large"};
  const std::string g = gpulab::slurm::grade_array_script(r);
  CHECK_THAT(g, Catch::StartsWith("#!/bin/bash\n"));
  CHECK_THAT(g, Catch::Contains("#SBATCH --array=0-7\n"));
  CHECK_THAT(g, Catch::Contains("#SBATCH --cpus-per-task=4\n"));
  CHECK_THAT(g, Catch::Contains("#SBATCH --gres=gpu:1\n"));
  CHECK_THAT(g, Catch::Contains("#SBATCH --partition=gpu\n"));
  CHECK_THAT(g, Catch::Contains("#SBATCH --time=01:00:00\n"));
  CHECK_THAT(g, Catch::Contains("#SBATCH --output=/shared/out/slurm/logs/grade-%A_%a.out\n"));
  CHECK_THAT(g, Catch::Contains("'/opt/gpulab/bin/gpulab' batch 'scan' '/shared/class it'\\''s/subs' --out "
                                "'/shared/out' --shard \"${SLURM_ARRAY_TASK_ID}/8\" --jobs 4 '--backend' 'cuda' "
                                "'--no-large'\n"));
  const std::string m = gpulab::slurm::merge_script(r);
  CHECK_THAT(m, Catch::Contains("exec '/opt/gpulab/bin/gpulab' merge '/shared/out'\n"));
  CHECK_THAT(m, !Catch::Contains("--gres"));  // merging needs no GPU
  CHECK_THAT(m, Catch::Contains("#SBATCH --partition=gpu\n"));
  // `gpulab batch --slurm --course FILE`: the merge job writes the late columns with the same file.
  r.merge_args = {"--course", "/shared/course file.json"};
  CHECK_THAT(
      gpulab::slurm::merge_script(r),
      Catch::Contains("exec '/opt/gpulab/bin/gpulab' merge '/shared/out' '--course' '/shared/course file.json'\n"));
}

TEST_CASE("progress: ETA and durations", "[batch]") {
  using gpulab::batch::ProgressBar;
  CHECK(ProgressBar::eta_text(10.0, 0, 10).empty());
  CHECK(ProgressBar::eta_text(10.0, 10, 10).empty());
  CHECK(ProgressBar::eta_text(10.0, 2, 10) == "ETA 40s");
  CHECK(ProgressBar::duration_text(185) == "3m05s");
  CHECK(ProgressBar::duration_text(3725) == "1h02m");
}
