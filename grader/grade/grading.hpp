// Grading one submission for one lab: build it with the harness, run every
// dataset case of every part in its own child process, compare the outputs
// with the expected ones, and score each part on its own.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "lab/lab_spec.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::grade {

struct GradeOptions {
  toolchain::Backend backend = toolchain::Backend::emu;
  bool include_large = true;        // the public cases too large to commit, generated from the public seed
  bool include_hidden = true;       // when the hidden seed's environment variable is set
  std::string hidden_visibility;    // overrides lab.json's (e.g. "visible" for a regrade)
  bool use_cache = true;
  bool race_check = true;               // emulator: run the public cases in the race-checking build
  bool sandbox = true;                  // compile and run in the sandbox (docs/security.md); false: --no-sandbox
  std::vector<std::string> only_parts;  // empty: all parts
};

struct CaseResult {
  std::string part;
  std::string id;
  std::string label;  // "dataset 7 (n=1000003)"
  std::string family;
  bool hidden = false;
  bool passed = false;
  double score = 0;
  double max_score = 0;
  double seconds = 0;
  std::string stopped_by;                // the limit that stopped the run ("the time limit", ...), if one did
  std::string feedback;                  // why it failed, in words; empty when passed
  std::vector<std::string> diagnostics;  // the emulator's findings during this case
};

struct PartResult {
  std::string name;
  std::string signature;
  double score = 0;
  double max_score = 0;
  std::vector<CaseResult> cases;
};

struct GradeResult {
  std::string lab;
  std::string lab_version;
  std::string submission;
  std::string backend;
  bool compiled = false;
  std::string compile_output;
  std::string hidden_visibility;
  std::vector<PartResult> parts;
  double score = 0;
  double max_score = 0;
  double seconds = 0;
  double compile_seconds = 0;
};

// Finds assignments/<lab>/lab.json under the project root; LabSpecError if absent.
LabSpec load_lab(const std::string& lab);
// Throws sandbox::SandboxUnavailable when options.sandbox is set and bubblewrap cannot run here.
GradeResult grade_submission(const LabSpec& lab, const std::filesystem::path& submission, const GradeOptions& options);

}  // namespace gpulab::grade
