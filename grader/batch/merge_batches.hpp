// Combining batch folders (the shards of a Slurm array, or classes graded on
// several machines) into one: every student's record and result in one folder,
// and the students a Slurm plan expected but no shard graded.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "student_record.hpp"

namespace gpulab::batch {

struct MergeOutcome {
  std::string lab;
  std::vector<std::string> students;  // everyone with a record, plus the missing ones, sorted
  std::vector<std::string> missing;   // named in a plan (DIR/slurm/plan.json) but without a record
  size_t copied = 0;
};

// Copies records and results from each of `dirs` into `out` (which may be one of them).
// Throws std::runtime_error when the folders mix labs, or grade one student differently.
MergeOutcome merge_batches(const std::vector<std::filesystem::path>& dirs, const std::filesystem::path& out);

// DIR/slurm/plan.json: the class a Slurm submission was meant to grade.
std::filesystem::path plan_path(const std::filesystem::path& out_dir);

}  // namespace gpulab::batch
