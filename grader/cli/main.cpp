// gpulab: the command-line entry point. Subcommands live in their own files.
#include <cstdio>
#include <exception>

#include "commands.hpp"

int main(int argc, char** argv) {
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
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  try {
    return action ? action() : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpulab: error: %s\n", e.what());
    return 2;
  }
}
