// `gpulab run [-I DIR]... [-D NAME[=VALUE]]... FILE.cu [MORE.cu|.cpp|.c...] [-- ARGS]`: build a
// standalone CUDA program for a backend and run it, so any course example runs without a GPU.
// With --profile, the emulator also counts each kernel's memory requests per source line and
// prints the worst lines after the program ends.
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "files/atomic_file.hpp"
#include "files/temp_folder.hpp"
#include "process/run.hpp"
#include "profile/kernel_registers.hpp"
#include "profile/profile_report.hpp"
#include "run_arguments.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::cli {
namespace {
struct RunOptions {
  std::vector<std::string> never_filled;  // the positional that only shows in --help (see add_run_command)
  std::vector<std::string> words;         // what gpulab's options left, in order: split_run_arguments
  std::vector<std::string> include_dirs;
  std::vector<std::string> defines;
  std::vector<std::string> files;  // the sources (from words)
  std::vector<std::string> args;   // the program's arguments (from words)
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
    std::map<std::string, int> registers;
    for (const std::string& file : o.files) {
      if (std::filesystem::path(file).extension() == ".cu")
        registers.merge(profile::kernel_registers(file, o.arch, o.include_dirs, o.defines));
    }
    const profile::ProfileReport report = profile::read_profile(profile_path, o.arch, registers);
    std::fflush(stdout);
    fmt::print(stderr, "\n{}", profile::profile_text(report));
    if (!o.profile_json.empty())
      files::write_file_atomically(
          o.profile_json,
          profile::profile_json(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  } catch (const std::exception& e) {
    fmt::print(stderr, "gpulab: no profile: {}\n", e.what());
    if (child.status() == 0) return 1;
  }
  return child.status();
}

std::string quoted_list(const std::vector<std::string>& files) {
  std::string s;
  for (const std::string& f : files) s += (s.empty() ? "'" : ", '") + f + "'";
  return s;
}

// -I folders must exist (the compilers skip a missing one without a word); relative ones are
// taken from the current folder, so they mean the same whatever the build's folder.
std::vector<std::string> checked_include_dirs(const std::vector<std::string>& dirs) {
  std::vector<std::string> out;
  for (const std::string& dir : dirs) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) throw RunUsageError("-I " + dir + ": no such folder");
    out.push_back(std::filesystem::absolute(dir).lexically_normal().string());
  }
  return out;
}

int run(RunOptions o, CLI::App* cmd) {
  try {
    const RunArguments split = split_run_arguments(o.words);
    if (split.help) {
      std::fputs(cmd->help().c_str(), stdout);
      return exit_code::ok;
    }
    o.files = split.sources;
    o.args = split.program_args;
    o.include_dirs = checked_include_dirs(o.include_dirs);
    for (const std::string& file : o.files) {
      std::error_code ec;
      if (!std::filesystem::is_regular_file(file, ec))
        throw RunUsageError("cannot find the source file '" + file + "'");
    }
  } catch (const RunUsageError& e) {
    fmt::print(stderr, "gpulab run: {}\n", e.what());
    return exit_code::bad_input;
  }
  toolchain::BuildOptions b;
  b.backend = toolchain::parse_backend(o.backend);
  if (o.profile && b.backend != toolchain::Backend::emu) {
    fmt::print(stderr, "gpulab: --profile is an emulator feature; on a GPU use Nsight Compute (ncu)\n");
    return 2;
  }
  b.race_check = o.race_check || o.profile;  // the profiler lives in the checking build
  b.cuda_arch = o.arch;
  b.use_cache = !o.no_cache;
  b.extra_sources.assign(o.files.begin() + 1, o.files.end());
  b.include_dirs = o.include_dirs;
  b.defines = o.defines;
  const toolchain::BuildResult r = toolchain::build_program(o.files.front(), b);
  if (o.verbose) fmt::print(stderr, "gpulab: {}{}\n", r.command, r.cached ? " (cached)" : "");
  if (!r.ok) {
    std::fputs(r.compiler_output.c_str(), stderr);
    fmt::print(stderr, "gpulab: {} did not compile for the {} backend (errors above point at your {}).\n",
               quoted_list(o.files), toolchain::backend_name(b.backend), o.files.size() == 1 ? "file" : "files");
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
  // The emulator then says, for each kernel, how its blocks run (one fiber per thread, or regions
  // between barriers as loops over the threads) and why.
  if (o.verbose && b.backend == toolchain::Backend::emu) setenv("GPULAB_EMU_VERBOSE", "1", 1);
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
  // Only --help: `-hA=3` is a program's argument, not -h with "A=3" (a lone -h still shows this help).
  cmd->set_help_flag("--help", "Print this help message and exit");
  cmd->add_option("-I", opts->include_dirs,
                  "add a folder where #include looks (repeatable; each source's own folder is searched too)")
      ->type_name("DIR")
      ->allow_extra_args(false);  // `-I inc main.cu`: one folder per -I, main.cu stays a source
  cmd->add_option("-D", opts->defines, "define a macro for every source, as the compilers' -D (repeatable)")
      ->type_name("NAME[=VALUE]")
      ->allow_extra_args(false)
      ->check([](const std::string& d) {
        const bool ok = !d.empty() && (std::isalpha(static_cast<unsigned char>(d[0])) || d[0] == '_');
        return ok ? std::string() : "-D " + d + ": a macro name starts with a letter or '_' (-D NAME or -D NAME=VALUE)";
      });
  cmd->add_option("--backend", opts->backend, "emu (CPU emulator, default) or cuda (real GPU)")
      ->check(CLI::IsMember({"emu", "cuda"}));
  cmd->add_option("--arch", opts->arch,
                  "GPU architecture (default sm_90): what the cuda backend compiles for, and the __CUDA_ARCH__ the "
                  "emulator's device code sees");
  cmd->add_flag("--race-check", opts->race_check,
                "emulator checking build: report data races and out-of-bounds reads at the exact access");
  cmd->add_flag("--profile", opts->profile,
                "emulator: count each kernel's memory requests per source line (sectors, bank conflicts, atomics, "
                "divergence, occupancy) and print the worst lines");
  cmd->add_option("--profile-json", opts->profile_json, "with --profile: also write the numbers to this JSON file");
  cmd->add_flag("--no-cache", opts->no_cache, "rebuild even if an identical build is cached");
  cmd->add_flag("-v,--verbose", opts->verbose,
                "print the compile command and, on the emulator, how each kernel's blocks run (regions between "
                "barriers, or one fiber per thread) and why");
  cmd->add_flag("--build-only", opts->build_only, "only compile; print the path of the program");
  // The sources and the program's arguments are read by split_run_arguments, in their order with `--`
  // and the options gpulab does not know: this positional, which never takes a word (its check
  // fails every one), is what makes CLI11 keep all of them, in order, in remaining().
  cmd->add_option("FILES", opts->never_filled,
                  "FILE.cu [MORE.cu|.cpp|.cc|.c...] [ARGS...] [-- ARGS...]: the sources, then the program's arguments")
      ->check([](const std::string&) { return std::string("read by split_run_arguments"); });
  cmd->validate_positionals();
  cmd->allow_extras();
  cmd->footer(
      "The sources come first: .cu files are compiled as CUDA, .cpp/.cc/.cxx as host C++ and .c as C,\n"
      "linked into one program. The first word that is not a source starts the program's arguments\n"
      "(`gpulab run vector_add.cu 100003`); everything after `--` goes to the program as written, also\n"
      "words that start with '-' (`gpulab run stencil.cu -- -n 64`). Before `--`, an option gpulab does\n"
      "not know is an error, and so is a header (headers are found through #include).\n"
      "Headers next to a source or in an -I folder may hold kernels, launches and __shared__ arrays:\n"
      "the emulator compiles rewritten copies of them, and errors name the header's own lines.");
  cmd->callback([opts, cmd, &action] {
    opts->words = cmd->remaining();
    action = [opts, cmd] { return run(*opts, cmd); };
  });
}

}  // namespace gpulab::cli
