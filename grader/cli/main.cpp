// gpulab: the command-line entry point. Subcommands live in their own files;
// this file turns what can end any of them into one exit code each
// (exit_codes.hpp, docs/exit-codes.md).
#include <cstdio>
#include <exception>

#include <fmt/format.h>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "files/grader_error.hpp"
#include "files/temp_folder.hpp"
#include "platform/large_buffers.hpp"
#include "process/interruption.hpp"
#include "sandbox/sandbox.hpp"
#include "toolchain/toolchain.hpp"

int main(int argc, char** argv) {
  namespace code = gpulab::cli::exit_code;
  gpulab::platform::keep_large_buffers_for_reuse();  // a grading's cases read buffers of one size after another
  CLI::App app{"gpulab: GPU programming labs, with a CPU emulator for CUDA and an autograder"};
  app.require_subcommand(1);
  gpulab::cli::Action action;
  gpulab::cli::add_run_command(app, action);
  gpulab::cli::add_rewrite_command(app, action);
  gpulab::cli::add_grade_commands(app, action);
  gpulab::cli::add_datagen_command(app, action);
  gpulab::cli::add_calibrate_command(app, action);
  gpulab::cli::add_bench_command(app, action);
  gpulab::cli::add_batch_commands(app, action);
  gpulab::cli::add_bundle_command(app, action);
  gpulab::cli::add_validate_command(app, action);
  gpulab::cli::add_similarity_command(app, action);
  gpulab::cli::add_counters_command(app, action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version end here with 0; every mistake in the arguments is bad input.
    return app.exit(e) == 0 ? code::ok : code::bad_input;
  }
  // Ctrl-C and SIGTERM stop the child being waited for and unwind: temporary folders go,
  // no half-written file is renamed into place, and the same command can simply be run again.
  gpulab::process::install_interrupt_handlers();
  try {
    gpulab::files::sweep_stale_temp_folders();
    gpulab::toolchain::sweep_cache_leftovers();
  } catch (const std::exception&) {
    // Leftovers of a killed run are tidied when possible; never a reason not to go on.
  }
  try {
    return action ? action() : code::ok;
  } catch (const gpulab::process::Interrupted& e) {
    fmt::print(stderr, "gpulab: {}; nothing half-done was kept: run the same command again to finish\n", e.what());
    return 128 + e.signal;
  } catch (const gpulab::sandbox::SandboxUnavailable& e) {
    fmt::print(stderr, "gpulab: {}\n", e.what());
    return code::sandbox_unavailable;
  } catch (const gpulab::files::GraderError& e) {
    fmt::print(stderr,
               "gpulab: grader error (not the submission's fault): {}\n"
               "gpulab: nothing was recorded for the submission; fix the cause above and run the same command "
               "again (docs/exit-codes.md)\n",
               e.what());
    return code::grader_error;
  } catch (const std::exception& e) {
    fmt::print(stderr, "gpulab: error: {}\n", e.what());
    return code::bad_input;
  }
}
