// prebuild_submission: the build step of grader/grade/grading.cpp, through the
// same harness_build_options and, like grading, inside the sandbox.
#include "prebuild.hpp"

#include <chrono>

#include "grade/harness_build.hpp"
#include "grade/submission_runner.hpp"

namespace gpulab::batch {
namespace fs = std::filesystem;

void prepare_lab_binding(const LabSpec& lab) { grade::write_binding(lab); }

PrebuildResult prebuild_submission(const LabSpec& lab, const fs::path& source, const grade::GradeOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  // The student's code compiles in the sandbox, as in grading.
  const grade::SubmissionRunner runner(o.sandbox, o.backend, grade::private_paths_of(source, o));
  toolchain::BuildOptions b = grade::harness_build_options(lab, o.backend, o.use_cache, o.cuda_arch);
  b.run_compiler = runner.compile_runner(lab);
  PrebuildResult r;
  const toolchain::BuildResult built = toolchain::build_program(source, b);
  r.ok = built.ok;
  r.compiler_output = built.compiler_output;
  if (built.ok && o.backend == toolchain::Backend::emu && o.race_check && toolchain::race_check_available()) {
    toolchain::BuildOptions rb = b;
    rb.race_check = true;
    toolchain::build_program(source, rb);  // a failure here is the grader's to report, as it is in grading
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace gpulab::batch
