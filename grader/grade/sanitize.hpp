// `gpulab grade --sanitize`: on a GPU, one committed public case of every part
// runs again under compute-sanitizer with each of its tools (memcheck,
// racecheck, synccheck, initcheck), without the harness's guard zones so that
// memcheck sees the real end of every buffer. The findings become feedback
// lines naming the kernel and the source line (sanitizer_report.hpp); they do
// not change the score.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "data/dataset.hpp"
#include "grading.hpp"
#include "submission_runner.hpp"

namespace gpulab::grade {

struct SanitizerResult {
  std::string case_label;
  std::vector<std::string> findings;  // one line each; empty when every tool was clean
  std::string problem;                // why the sanitizer could not run, if it could not
};

SanitizerResult sanitize_part(const PartSpec& part, const Manifest& committed, const std::filesystem::path& program,
                              const std::filesystem::path& work, const SubmissionRunner& runner);
std::filesystem::path compute_sanitizer_path();                 // next to nvcc, else on PATH; empty when absent
std::filesystem::path cuda_tool_path(const std::string& name);  // a CUDA tool (ncu, ...), found the same way
// The committed case of `part` with the most elements: small enough for the slow tools, big
// enough for several blocks. Null when there is none.
const DatasetCase* largest_committed_case(const PartSpec& part, const Manifest& committed);

}  // namespace gpulab::grade
