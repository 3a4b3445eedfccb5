// `gpulab run FILE.cu [args...]`: build a standalone CUDA program for a backend
// and run it, so any course example runs without a GPU. With --profile, the
// emulator also counts each kernel's memory requests per source line and
// prints the worst lines after the program ends.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "files/atomic_file.hpp"
#include "files/temp_folder.hpp"
#include "process/run.hpp"
#include "profile/kernel_registers.hpp"
#include "profile/profile_report.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::cli {
namespace {
struct RunOptions {
  std::string file;
  std::vector<std::string> args;
  std::string backend = "emu";
  std::string arch = "sm_90";
  bool race_check = false;
  bool profile = false;
  std::string profile_json;
  bool no_cache = false;
  bool verbose = false;
  bool build_only = false;
};

// Runs the checking build with the profiler on, then prints the profile (stderr) and writes its JSON.
int run_profiled(const RunOptions& o, const toolchain::BuildResult& r) {
  const files::TempFolder folder("profile");
  const std::string profile_path = (folder / "profile.json").string();
  std::vector<std::string> argv{r.executable.string()};
  argv.insert(argv.end(), o.args.begin(), o.args.end());
  process::ProcessOptions p;
  p.capture_output = false;
  p.env = {{"GPULAB_EMU_CHECKS", o.race_check ? "race,profile" : "profile"}, {"GPULAB_EMU_PROFILE", profile_path}};
  std::fflush(nullptr);
  const process::ProcessResult child = process::run(argv, p);
  if (!child.started()) {
    fmt::print(stderr, "gpulab: cannot start the compiled program: {}\n", child.spawn_error);
    return 1;
  }
  try {
    const profile::ProfileReport report =
        profile::read_profile(profile_path, o.arch, profile::kernel_registers(o.file, o.arch, {}));
    std::fflush(stdout);
    fmt::print(stderr, "\n{}", profile::profile_text(report));
    if (!o.profile_json.empty()) files::write_file_atomically(o.profile_json, profile::profile_json(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  } catch (const std::exception& e) {
    fmt::print(stderr, "gpulab: no profile: {}\n", e.what());
    if (child.status() == 0) return 1;
  }
  return child.status();
}

int run(const RunOptions& o) {
  toolchain::BuildOptions b;
  b.backend = toolchain::parse_backend(o.backend);
  if (o.profile && b.backend != toolchain::Backend::emu) {
    fmt::print(stderr, "gpulab: --profile is an emulator feature; on a GPU use Nsight Compute (ncu)\n");
    return 2;
  }
  b.race_check = o.race_check || o.profile;  // the profiler lives in the checking build
  b.cuda_arch = o.arch;
  b.use_cache = !o.no_cache;
  const toolchain::BuildResult r = toolchain::build_program(o.file, b);
  if (o.verbose) fmt::print(stderr, "gpulab: {}{}\n", r.command, r.cached ? " (cached)" : "");
  if (!r.ok) {
    std::fputs(r.compiler_output.c_str(), stderr);
    fmt::print(stderr, "gpulab: '{}' did not compile for the {} backend (errors above point at your file).\n", o.file,
               toolchain::backend_name(b.backend));
    return 1;
  }
  if (!r.compiler_output.empty()) std::fputs(r.compiler_output.c_str(), stderr);  // warnings
  if (o.build_only) {
    fmt::print("{}\n", r.executable.string());
    return 0;
  }
  if (o.profile) return run_profiled(o, r);
  std::vector<std::string> argv{r.executable.string()};
  argv.insert(argv.end(), o.args.begin(), o.args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  std::fflush(nullptr);
  execv(cargv[0], cargv.data());
  std::perror("gpulab: cannot start the compiled program");
  return 1;
}
}  // namespace

void add_run_command(CLI::App& app, Action& action) {
  auto opts = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand("run", "Compile a standalone CUDA program (with its own main) and run it");
  cmd->add_option("file", opts->file, "the .cu file")->required();
  cmd->add_option("args", opts->args, "arguments passed to the program");
  cmd->add_option("--backend", opts->backend, "emu (CPU emulator, default) or cuda (real GPU)")
      ->check(CLI::IsMember({"emu", "cuda"}));
  cmd->add_option("--arch", opts->arch, "GPU architecture for the cuda backend (default sm_90)");
  cmd->add_flag("--race-check", opts->race_check,
                "emulator checking build: report data races and out-of-bounds reads at the exact access");
  cmd->add_flag("--profile", opts->profile,
                "emulator: count each kernel's memory requests per source line (sectors, bank conflicts, atomics, "
                "divergence, occupancy) and print the worst lines");
  cmd->add_option("--profile-json", opts->profile_json, "with --profile: also write the numbers to this JSON file");
  cmd->add_flag("--no-cache", opts->no_cache, "rebuild even if an identical build is cached");
  cmd->add_flag("-v,--verbose", opts->verbose, "print the compile command");
  cmd->add_flag("--build-only", opts->build_only, "only compile; print the path of the program");
  cmd->prefix_command();  // everything after the file goes to the program
  cmd->callback([opts, &action] { action = [opts] { return run(*opts); }; });
}

}  // namespace gpulab::cli
