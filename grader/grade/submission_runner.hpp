// How the grading loop starts a submission's compiles and runs: in the
// sandbox --sandbox chooses (bubblewrap by default, or an unprivileged user
// where namespaces are unavailable) or, with --no-sandbox, directly. Either way
// each run gets the part's limits, a cleared environment and a capped output;
// the sandbox adds the isolation of docs/security.md.
#pragma once
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "grade/stop_reason.hpp"
#include "process/run.hpp"
#include "lab/lab_spec.hpp"
#include "sandbox/resource_limits.hpp"
#include "sandbox/sandbox.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::grade {

class SubmissionRunner {
 public:
  // Unless `mode` is none, throws sandbox::SandboxUnavailable where that isolation cannot run;
  // `private_paths` are what the submission must not reach (checked where the isolation relies on
  // file permissions).
  SubmissionRunner(sandbox::Mode mode, toolchain::Backend backend,
                   const std::vector<sandbox::PrivatePath>& private_paths = {});
  ~SubmissionRunner();

  sandbox::ResolvedLimits limits(const sandbox::ResourceLimits& l) const;

  // For BuildOptions::run_compiler; empty without the sandbox (the compiler then runs directly).
  toolchain::CompileRunner compile_runner(const LabSpec& lab) const;

  // Runs the harness for one case. It may write `work_dir` only and read `inputs` and `program`.
  // Throws files::GraderError when the run cannot be started (a spawn error, or the sandbox failing
  // before the program ran): never the submission's fault.
  process::ProcessResult run_case(const std::filesystem::path& program, const std::vector<std::string>& args,
                                  const std::filesystem::path& work_dir,
                                  const std::vector<std::filesystem::path>& inputs,
                                  const std::map<std::string, std::string>& env,
                                  const sandbox::ResolvedLimits& limits) const;

  bool sandboxed() const { return box_ != nullptr; }
  // The isolation in words, for the results.
  std::string isolation() const;

 private:
  std::unique_ptr<sandbox::Sandbox> box_;
  toolchain::Backend backend_;
};

// The limit (other than wall time) that ended a run: the output, CPU time, file size or memory limit; none if none.
StopReason limit_reason(const process::ProcessResult& child);
// Why a run ended early in words, when such a limit ended it; "" otherwise.
std::string limit_feedback(const process::ProcessResult& child, const sandbox::ResolvedLimits& limits);

// The files the grader reads back from a case's folder must be plain files the child wrote, not
// symbolic links (to an expected output, say), FIFOs or devices: "" when they are, else why not.
std::string check_child_files(const std::filesystem::path& dir, const std::vector<std::string>& names);

}  // namespace gpulab::grade
