// `gpulab validate <lab> DIR`: checking a folder of dataset cases before it is
// used to grade: the manifest agrees with lab.json and every file's hash; the
// expected outputs (and error scales) are exactly what the gold implementation
// computes from the inputs; and the lab's reference solution, run on every
// case by the grader itself, passes them all.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "lab/lab_spec.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::validate {

struct ValidationReport {
  size_t cases = 0;
  size_t gold_checked = 0;            // cases whose outputs were recomputed
  std::vector<std::string> problems;  // manifest and gold problems, one sentence each
  bool reference_ran = false;
  size_t reference_passed = 0, reference_cases = 0;
  std::vector<std::string> reference_failures;  // "case id: feedback"

  bool ok() const { return problems.empty() && reference_failures.empty(); }
};

// Manifest, hashes and gold. Never throws for a bad dataset: each problem is listed.
ValidationReport check_manifest_and_gold(const LabSpec& lab, const std::filesystem::path& dir);
// Grades reference/<lab>/<lab>.cu against the cases in `dir`, through a temporary project root
// whose datasets/<lab> is `dir` (GPULAB_HOME is set for the call and restored).
void check_with_reference(const LabSpec& lab, const std::filesystem::path& dir, toolchain::Backend backend,
                          ValidationReport& report);

}  // namespace gpulab::validate
