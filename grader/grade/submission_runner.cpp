// SubmissionRunner: sandboxed or direct compiles and runs, and the words for
// runs that a limit or the sandbox ended.
#include "submission_runner.hpp"

#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#include "files/grader_error.hpp"
#include "sandbox/sandbox.hpp"
#include "platform/cpu_count.hpp"
#include "sandbox/sandbox_policy.hpp"

namespace gpulab::grade {
namespace fs = std::filesystem;
namespace {
unsigned cpu_cores() { return platform::usable_cpus(); }

// The emulator runs blocks on $GPULAB_EMU_WORKERS threads, else one per core.
unsigned emulator_workers() {
  if (const char* env = std::getenv("GPULAB_EMU_WORKERS")) {
    const int v = std::atoi(env);
    if (v >= 1 && v <= 256) return static_cast<unsigned>(v);
  }
  return cpu_cores();
}

std::string number(double x) { return fmt::format("{:g}", x); }
}  // namespace

SubmissionRunner::SubmissionRunner(sandbox::Mode mode, toolchain::Backend backend,
                                   const std::vector<sandbox::PrivatePath>& private_paths)
    : backend_(backend) {
  if (mode != sandbox::Mode::none) box_ = sandbox::Sandbox::open(mode, private_paths);
}

std::string SubmissionRunner::isolation() const {
  return box_ ? box_->description() : sandbox::no_sandbox_description();
}

SubmissionRunner::~SubmissionRunner() = default;

namespace {
constexpr double kCompileFileSizeMb = 1024;  // the largest file a compile may write
}  // namespace

sandbox::ResolvedLimits SubmissionRunner::limits(const sandbox::ResourceLimits& l) const {
  return sandbox::resolve(l, backend_ == toolchain::Backend::cuda, cpu_cores(), emulator_workers());
}

toolchain::CompileRunner SubmissionRunner::compile_runner(const LabSpec& lab) const {
  if (!box_) return {};
  const sandbox::Sandbox* box = box_.get();
  sandbox::ResolvedLimits limits = this->limits(lab.limits);
  limits.cpu_s = limits.compile_s * cpu_cores();
  // The compiler and linker write the program (the emulator's runtime and the harness make it
  // tens of MiB): the lab's file size limit is for what the submission writes when it runs.
  limits.file_size_mb = std::max(limits.file_size_mb, kCompileFileSizeMb);
  return [box, limits](const toolchain::CompileJob& job) {
    if (box->reads_in_place_as_other_user()) {
      for (const fs::path& f : job.reads) {
        struct stat st {};
        if (stat(f.c_str(), &st) == 0 && S_ISREG(st.st_mode) && !(st.st_mode & S_IROTH)) {
          throw std::runtime_error("'" + f.string() +
                                   "' is not readable by other users, and the sandbox runs as "
                                   "'nobody' because gpulab runs as root: make it readable (chmod o+r) or grade as "
                                   "an ordinary user");
        }
      }
    }
    box->hand_over(job.build_dir);
    sandbox::SandboxPolicy p = sandbox::compile_policy(box->system(), job.build_dir, job.reads);
    p.command = job.argv;
    process::ProcessResult r = box->run(p, limits, limits.compile_s, false);
    box->take_back(job.build_dir);
    if (!r.started()) throw files::GraderError("the sandbox could not start the compiler: " + r.spawn_error);
    if (box->refused(r)) throw files::GraderError("the sandbox could not start the compiler: " + r.output);
    if (r.timed_out) {
      r.output += "\ngpulab: the compiler was stopped after " + number(limits.compile_s) +
                  " s (the lab's compile time limit, limits.compile_s)\n";
      r.signal = 0;
      r.exit_code = 124;
    }
    return r;
  };
}

process::ProcessResult SubmissionRunner::run_case(const fs::path& program, const std::vector<std::string>& args,
                                                  const fs::path& work_dir, const std::vector<fs::path>& inputs,
                                                  const std::map<std::string, std::string>& env,
                                                  const sandbox::ResolvedLimits& limits) const {
  // The program is started (and bound in the sandbox) at its real path: bubblewrap cannot bind a
  // file whose path goes through a symbolic link inside a folder that is already bound
  // (/usr/local/cuda/bin/compute-sanitizer, where /usr/local/cuda links to cuda-13.0): it resolves
  // the link inside the new root and finds nothing. Inputs keep the paths their requests name.
  std::error_code ec;
  fs::path real_program = fs::weakly_canonical(program, ec);
  if (ec) real_program = program;
  std::vector<std::string> command{real_program.string()};
  command.insert(command.end(), args.begin(), args.end());
  if (box_) {
    box_->hand_over(work_dir);
    sandbox::SandboxPolicy p =
        sandbox::run_policy(box_->system(), real_program, work_dir, inputs, backend_ == toolchain::Backend::cuda);
    p.command = command;
    for (const auto& [k, v] : env) p.env[k] = v;
    process::ProcessResult r = box_->run(p, limits, limits.wall_s, true);
    if (!r.started())
      throw files::GraderError("the sandbox could not start a run of " + program.string() + ": " + r.spawn_error);
    if (box_->refused(r)) {
      throw files::GraderError("the sandbox could not start a run of " + program.string() + ": " +
                               r.output.substr(0, 2000));
    }
    return r;
  }
  process::ProcessOptions o;
  o.time_limit_s = limits.wall_s;
  o.step_limit_s = limits.step_s;
  o.resident_limit_bytes = static_cast<size_t>(limits.resident_limit_mb) << 20;
  o.output_cap = static_cast<size_t>(limits.output_kb * 1024);
  o.stop_at_output_cap = true;
  o.clear_environment = true;
  o.before_exec = [limits](std::string& message) {
    if (sandbox::apply_rlimits(limits, false)) return true;
    message = "cannot set the resource limits of the run";
    return false;
  };
  std::map<std::string, std::string> full_env = {
      {"PATH", "/usr/local/bin:/usr/bin:/bin"}, {"HOME", work_dir.string()}, {"TMPDIR", "/tmp"}};
  for (const char* k : {"CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH", "GPULAB_EMU_WORKERS", "GPULAB_EMU_REGIONS"}) {
    if (const char* v = std::getenv(k)) full_env[k] = v;
  }
  for (const auto& [k, v] : env) full_env[k] = v;
  o.env = full_env;
  const process::ProcessResult r = process::run(command, o);
  if (!r.started())
    throw files::GraderError("a run of " + program.string() + " could not be started: " + r.spawn_error);
  return r;
}

namespace {
bool out_of_memory(const process::ProcessResult& r) {
  const bool said =
      r.output.find("std::bad_alloc") != std::string::npos || r.output.find("cannot reserve") != std::string::npos;
  return said && (r.signal == SIGABRT || r.signal == SIGSEGV || r.exit_code != 0);
}
}  // namespace

StopReason limit_reason(const process::ProcessResult& r) {
  if (r.output_exceeded) return StopReason::output_limit;
  if (r.signal == SIGXCPU) return StopReason::cpu_time_limit;
  if (r.signal == SIGXFSZ) return StopReason::file_size_limit;
  if (out_of_memory(r) || r.memory_exceeded) return StopReason::memory_limit;
  return StopReason::none;
}

std::string limit_feedback(const process::ProcessResult& r, const sandbox::ResolvedLimits& l) {
  if (r.output_exceeded) {
    return "printed more than " + number(l.output_kb) +
           " KiB to stdout/stderr (the output limit) and was stopped: "
           "remove debugging output, especially printf in kernels and loops. It began with:\n" +
           r.output.substr(0, 400);
  }
  if (r.signal == SIGXCPU) {
    return "used more than " + number(l.cpu_s) +
           " s of CPU time (the CPU time limit) and was stopped: an endless "
           "loop, or far too much work";
  }
  if (r.signal == SIGXFSZ) {
    return "tried to write a file larger than " + number(l.file_size_mb) + " MiB (the file size limit) and was stopped";
  }
  if (r.memory_exceeded) {
    return "held more than " + number(static_cast<double>(l.resident_limit_mb)) +
           " MiB of memory (the memory limit: " + number(l.memory_mb) +
           " MiB for the program, the rest for the CUDA runtime) and was stopped: free what "
           "you allocate, and do not keep copies of whole inputs on the host";
  }
  if (out_of_memory(r)) {
    return "ran out of memory: a process may use about " + number(l.memory_mb) +
           " MiB (the memory limit); an allocation beyond it fails";
  }
  return "";
}

std::string check_child_files(const fs::path& dir, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    const fs::path p = dir / name;
    struct stat st {};
    if (lstat(p.c_str(), &st) != 0) continue;  // missing files are reported where they are needed
    if (S_ISLNK(st.st_mode)) {
      std::error_code ec;
      return "'" + name + "' in the case's folder is a symbolic link (to " + fs::read_symlink(p, ec).string() +
             "), not a file the harness wrote: the grader does not follow links the program leaves behind";
    }
    if (!S_ISREG(st.st_mode)) return "'" + name + "' in the case's folder is not a plain file";
  }
  return "";
}

}  // namespace gpulab::grade
