// `gpulab grade --counters`: one committed public case of every part (the
// largest, as for --sanitize) runs once more to count its memory requests per
// kernel: under Nsight Compute (ncu) on a GPU, in the emulator's profiling
// build on the emulator, under the same metric names (profile/counters.hpp).
// Run both on one submission to see how far the emulator's counts are from
// the hardware's (`gpulab counters EMU.json GPU.json`); no effect on the score.
#pragma once
#include <filesystem>
#include <string>

#include "data/dataset.hpp"
#include "grading.hpp"
#include "profile/counters.hpp"
#include "submission_runner.hpp"

namespace gpulab::grade {

struct CounterResult {
  std::string case_label;
  std::string source;  // "emulator" or "Nsight Compute"
  profile::KernelCounters kernels;
  std::string problem;  // why nothing was counted, if nothing was
};

CounterResult count_part(const PartSpec& part, const Manifest& committed, const std::filesystem::path& program,
                         const std::filesystem::path& work, const SubmissionRunner& runner, toolchain::Backend backend,
                         const std::string& arch);

}  // namespace gpulab::grade
