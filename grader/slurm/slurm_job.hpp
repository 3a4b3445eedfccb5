// Grading a class on a Slurm cluster: an sbatch job array whose task i runs
// `gpulab batch --shard i/K` on one shard of the class, and a merge job that
// Slurm starts when every task has ended (afterany), running `gpulab merge`.
// The scripts and the plan (the class as it was when submitted) are kept in
// DIR/slurm/, the tasks' logs in DIR/slurm/logs/.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace gpulab::slurm {

struct SlurmRequest {
  std::string lab;
  std::filesystem::path gpulab;       // this executable, by absolute path (the nodes must see it)
  std::filesystem::path submissions;  // absolute, on a file system the nodes share
  std::filesystem::path out;          // absolute, likewise
  unsigned shards = 4;
  unsigned jobs = 2;                    // --jobs of each task, and its --cpus-per-task
  std::string partition;                // empty: the cluster's default
  std::string gres;                     // e.g. "gpu:1"; empty: none
  std::string time_limit;               // e.g. "02:00:00"; empty: the partition's default
  std::vector<std::string> grade_args;  // passed on to every task: --backend, --no-large, --part, ...
  std::vector<std::string> students;    // the class, for the plan
  std::vector<std::string> merge_args;  // passed on to the merge job: --course FILE
};

struct SlurmSubmission {
  std::string grade_job;  // the array's job id
  std::string merge_job;
};

std::string grade_array_script(const SlurmRequest& r);
std::string merge_script(const SlurmRequest& r);
// Writes DIR/slurm/{plan.json,grade.sbatch,merge.sbatch} and submits both jobs with sbatch.
// Throws std::runtime_error with sbatch's own message when Slurm refuses.
SlurmSubmission submit_to_slurm(const SlurmRequest& r);

}  // namespace gpulab::slurm
