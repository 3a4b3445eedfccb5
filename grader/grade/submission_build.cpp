// The build step shared by grading, the batch's prebuild and the speed scorer
// (see submission_build.hpp).
#include "grade/submission_build.hpp"

#include <chrono>
#include <future>

#include "grade/harness_build.hpp"
#include "platform/cpu_count.hpp"
#include "toolchain/audit_inputs.hpp"

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

namespace {
// The lab's library algorithms (lab.json's "library_algorithms") as the audit reads them.
audit::LibraryRules library_rules(const LabSpec& lab) {
  audit::LibraryRules rules{lab.library_algorithms.task, lab.library_algorithms.allowed, {}};
  for (const LibraryAlgorithmSpec& a : lab.library_algorithms.algorithms) rules.algorithms.push_back({a.names, a.is});
  return rules;
}

double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// The submission's object, audited (the plain build's: the checking build's object carries the
// sanitizer's own constructor), then the harness program around it; `race` for the checking build.
toolchain::BuildResult build_in_two_steps(const LabSpec& lab, const fs::path& source, const GradeOptions& o,
                                          const SubmissionRunner& runner, bool race, toolchain::BuildResult& object,
                                          std::optional<audit::AuditResult>* audited,
                                          std::vector<StepTiming>& timings) {
  const std::string build = race ? "checking build: " : "plain build: ";
  auto t = std::chrono::steady_clock::now();
  toolchain::BuildOptions ob = submission_object_options(o.backend, o.use_cache, o.cuda_arch);
  ob.race_check = race;
  ob.run_compiler = runner.compile_runner(lab);
  object = toolchain::build_program(source, ob);
  timings.push_back({build + "submission object", since(t), object.cached ? "cache hit" : "compiled"});
  if (!object.ok) return object;
  if (audited) {
    t = std::chrono::steady_clock::now();
    const fs::path audit_source = o.backend == toolchain::Backend::emu
                                      ? toolchain::emulator_rewritten_source(object.executable, source)
                                      : fs::absolute(source);
    *audited = audit::audit_object(object.executable, o.backend, audit_source, runner.compile_runner(lab), o.cuda_arch,
                                   library_rules(lab));
    timings.push_back({"audit of the object", since(t), ""});
  }
  t = std::chrono::steady_clock::now();
  HarnessLink link = harness_link(lab, o.backend, o.use_cache, o.cuda_arch, object.executable, race);
  link.options.run_compiler = runner.compile_runner(lab);
  toolchain::BuildResult program = toolchain::build_program(link.main_source, link.options);
  timings.push_back({build + "harness program", since(t), program.cached ? "cache hit" : "linked"});
  // The student reads the compiler's words on their file first, then what the link said.
  program.compiler_output = object.compiler_output + program.compiler_output;
  program.command = object.command + " && " + program.command;
  return program;
}
}  // namespace

SubmissionBuild build_submission(const LabSpec& lab, const fs::path& source, const GradeOptions& o,
                                 const SubmissionRunner& runner) {
  const auto start = std::chrono::steady_clock::now();
  SubmissionBuild built;
  // On the emulator the committed public cases also run in the checking build, which
  // reports data races (a race rarely changes the emulator's own results).
  const bool checking = o.backend == toolchain::Backend::emu && o.race_check && toolchain::race_check_available();
  // The two builds compile the same file with different code generation (every access
  // instrumented, no vectorisation: grader/emu/check/CMakeLists.txt), so neither can reuse the
  // other's compile beyond the precompiled header they share. Where this process may use more
  // than one CPU they compile at the same time; on one CPU, one after the other (the checking
  // build only once the plain one compiled: a file that does not compile is not compiled twice).
  std::future<toolchain::BuildResult> race_future;
  std::vector<StepTiming> race_timings;
  const auto race_build = [&] {
    toolchain::BuildResult race_object;
    return build_in_two_steps(lab, source, o, runner, true, race_object, nullptr, race_timings);
  };
  const bool at_once = checking && platform::usable_cpus() > 1;
  if (at_once) race_future = std::async(std::launch::async, race_build);
  built.program = build_in_two_steps(lab, source, o, runner, false, built.object, &built.audit, built.timings);
  if (checking) {
    const toolchain::BuildResult race_built = at_once            ? race_future.get()
                                              : built.program.ok ? race_build()
                                                                 : toolchain::BuildResult{};
    if (built.program.ok && race_built.ok) built.race_program = race_built.executable;
    // Compiled at the same time, its steps are shown under the plain build's, not added to the sum.
    for (StepTiming& t : race_timings) {
      if (!at_once) continue;
      t.note += t.note.empty() ? "at the same time as the plain build" : ", at the same time as the plain build";
      t.detail = true;
    }
    built.timings.insert(built.timings.end(), race_timings.begin(), race_timings.end());
  }
  built.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return built;
}

}  // namespace gpulab::grade
