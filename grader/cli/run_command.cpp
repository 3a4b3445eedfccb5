// `gpulab run FILE.cu [args...]`: build a standalone CUDA program for a backend
// and run it, so any course example runs without a GPU.
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "commands.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::cli {
namespace {
struct RunOptions {
  std::string file;
  std::vector<std::string> args;
  std::string backend = "emu";
  std::string arch = "sm_90";
  bool race_check = false;
  bool no_cache = false;
  bool verbose = false;
  bool build_only = false;
};

int run(const RunOptions& o) {
  toolchain::BuildOptions b;
  b.backend = toolchain::parse_backend(o.backend);
  b.race_check = o.race_check;
  b.cuda_arch = o.arch;
  b.use_cache = !o.no_cache;
  const toolchain::BuildResult r = toolchain::build_program(o.file, b);
  if (o.verbose) std::fprintf(stderr, "gpulab: %s%s\n", r.command.c_str(), r.cached ? " (cached)" : "");
  if (!r.ok) {
    std::fputs(r.compiler_output.c_str(), stderr);
    std::fprintf(stderr, "gpulab: '%s' did not compile for the %s backend (errors above point at your file).\n",
                 o.file.c_str(), toolchain::backend_name(b.backend));
    return 1;
  }
  if (!r.compiler_output.empty()) std::fputs(r.compiler_output.c_str(), stderr);  // warnings
  if (o.build_only) {
    std::printf("%s\n", r.executable.c_str());
    return 0;
  }
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
  cmd->add_flag("--no-cache", opts->no_cache, "rebuild even if an identical build is cached");
  cmd->add_flag("-v,--verbose", opts->verbose, "print the compile command");
  cmd->add_flag("--build-only", opts->build_only, "only compile; print the path of the program");
  cmd->prefix_command();  // everything after the file goes to the program
  cmd->callback([opts, &action] { action = [opts] { return run(*opts); }; });
}

}  // namespace gpulab::cli
