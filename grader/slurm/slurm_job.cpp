// The sbatch scripts and their submission.
#include "slurm_job.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "files/atomic_file.hpp"
#include "process/run.hpp"
#include "process/shell_quote.hpp"

namespace gpulab::slurm {
namespace fs = std::filesystem;
using process::shell_quote;

namespace {
std::string common_directives(const SlurmRequest& r) {
  std::string s;
  if (!r.partition.empty()) s += "#SBATCH --partition=" + r.partition + "\n";
  if (!r.time_limit.empty()) s += "#SBATCH --time=" + r.time_limit + "\n";
  return s;
}

std::string run_sbatch(const std::vector<std::string>& argv) {
  process::ProcessOptions o;
  o.search_path = true;
  const process::ProcessResult p = process::run(argv, o);
  if (!p.started()) {
    throw std::runtime_error("cannot run sbatch (" + p.spawn_error + "): is Slurm installed, and sbatch on PATH?");
  }
  std::string out = p.output;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  if (p.status() != 0) {
    throw std::runtime_error("sbatch refused the job (exit code " + std::to_string(p.status()) + "): " + out);
  }
  // --parsable prints "jobid" or "jobid;cluster" on its last line.
  const size_t nl = out.rfind('\n');
  std::string last = nl == std::string::npos ? out : out.substr(nl + 1);
  if (const size_t semicolon = last.find(';'); semicolon != std::string::npos) last.resize(semicolon);
  if (last.empty() || last.find_first_not_of("0123456789") != std::string::npos) {
    throw std::runtime_error("sbatch answered '" + out + "', which holds no job id");
  }
  return last;
}
}  // namespace

std::string grade_array_script(const SlurmRequest& r) {
  std::string args;
  for (const std::string& a : r.grade_args) args += " " + shell_quote(a);
  const std::string logs = (r.out / "slurm" / "logs").string();
  return "#!/bin/bash\n"
         "# One task of the job array grading lab " +
         r.lab + ": shard $SLURM_ARRAY_TASK_ID of " + std::to_string(r.shards) +
         " (written by `gpulab batch --slurm`).\n"
         "#SBATCH --job-name=gpulab-" +
         r.lab +
         "\n"
         "#SBATCH --array=0-" +
         std::to_string(r.shards - 1) +
         "\n"
         "#SBATCH --cpus-per-task=" +
         std::to_string(r.jobs) +
         "\n"
         "#SBATCH --output=" +
         logs + "/grade-%A_%a.out\n" + (r.gres.empty() ? std::string() : "#SBATCH --gres=" + r.gres + "\n") +
         common_directives(r) +
         "set -u\n"
         "# A cache of its own per task, on the node: builds and generated datasets are never shared half-written.\n"
         "export GPULAB_CACHE=\"${TMPDIR:-/tmp}/gpulab-cache-${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}\"\n" +
         shell_quote(r.gpulab.string()) + " batch " + shell_quote(r.lab) + " " + shell_quote(r.submissions.string()) +
         " --out " + shell_quote(r.out.string()) + " --shard \"${SLURM_ARRAY_TASK_ID}/" + std::to_string(r.shards) +
         "\" --jobs " + std::to_string(r.jobs) + args +
         "\n"
         "status=$?\n"
         "rm -rf \"$GPULAB_CACHE\"\n"
         "exit $status\n";
}

std::string merge_script(const SlurmRequest& r) {
  const std::string logs = (r.out / "slurm" / "logs").string();
  std::string merge_args;
  for (const std::string& a : r.merge_args) merge_args += " " + shell_quote(a);
  return "#!/bin/bash\n"
         "# Runs when every task of the grading array has ended: one gradebook and report for the class.\n"
         "#SBATCH --job-name=gpulab-" +
         r.lab +
         "-merge\n"
         "#SBATCH --cpus-per-task=1\n"
         "#SBATCH --output=" +
         logs + "/merge-%j.out\n" + common_directives(r) + "exec " + shell_quote(r.gpulab.string()) + " merge " +
         shell_quote(r.out.string()) + merge_args + "\n";
}

SlurmSubmission submit_to_slurm(const SlurmRequest& r) {
  if (r.shards == 0) throw std::runtime_error("--shards must be at least 1");
  const fs::path dir = r.out / "slurm";
  fs::create_directories(dir / "logs");
  const nlohmann::json plan = {{"schema", "gpulab-slurm-plan/1"},
                               {"lab", r.lab},
                               {"submissions", r.submissions.string()},
                               {"shards", r.shards},
                               {"students", r.students},
                               {"grade_args", r.grade_args}};
  files::write_file_atomically(dir / "plan.json", plan.dump(2) + "\n");
  files::write_file_atomically(dir / "grade.sbatch", grade_array_script(r));
  files::write_file_atomically(dir / "merge.sbatch", merge_script(r));
  SlurmSubmission s;
  s.grade_job = run_sbatch({"sbatch", "--parsable", (dir / "grade.sbatch").string()});
  s.merge_job =
      run_sbatch({"sbatch", "--parsable", "--dependency=afterany:" + s.grade_job, (dir / "merge.sbatch").string()});
  return s;
}

}  // namespace gpulab::slurm
