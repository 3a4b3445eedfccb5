// The build step shared by grading, the batch's prebuild and the speed scorer
// (see submission_build.hpp).
#include "grade/submission_build.hpp"

#include <chrono>

#include "grade/harness_build.hpp"

namespace gpulab::grade {
namespace fs = std::filesystem;

namespace {
toolchain::BuildOptions sandboxed_harness_options(const LabSpec& lab, const GradeOptions& o,
                                                  const SubmissionRunner& runner) {
  toolchain::BuildOptions b = harness_build_options(lab, o.backend, o.use_cache, o.cuda_arch);
  b.run_compiler = runner.compile_runner(lab);
  return b;
}
}  // namespace

toolchain::BuildResult build_harness_program(const LabSpec& lab, const fs::path& source, const GradeOptions& o,
                                             const SubmissionRunner& runner) {
  return toolchain::build_program(source, sandboxed_harness_options(lab, o, runner));
}

SubmissionBuild build_submission(const LabSpec& lab, const fs::path& source, const GradeOptions& o,
                                 const SubmissionRunner& runner) {
  const toolchain::BuildOptions b = sandboxed_harness_options(lab, o, runner);
  const auto start = std::chrono::steady_clock::now();
  SubmissionBuild built;
  built.program = toolchain::build_program(source, b);
  // On the emulator the committed public cases also run in the checking build, which
  // reports data races (a race rarely changes the emulator's own results).
  if (built.program.ok && o.backend == toolchain::Backend::emu && o.race_check && toolchain::race_check_available()) {
    toolchain::BuildOptions rb = b;
    rb.race_check = true;
    const toolchain::BuildResult race_built = toolchain::build_program(source, rb);
    if (race_built.ok) built.race_program = race_built.executable;
  }
  built.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return built;
}

}  // namespace gpulab::grade
