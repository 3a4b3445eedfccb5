// The gpulab subcommands, each registered on the CLI11 app by its own file.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <string>

namespace gpulab::cli {

// Each registers its subcommand and sets `action` to run when it is chosen; the action returns the exit code.
using Action = std::function<int()>;
void add_run_command(CLI::App& app, Action& action);
void add_rewrite_command(CLI::App& app, Action& action);
void add_grade_commands(CLI::App& app, Action& action);   // grade, test
void add_datagen_command(CLI::App& app, Action& action);  // datagen, contract
void add_calibrate_command(CLI::App& app, Action& action);
void add_bench_command(CLI::App& app, Action& action);
void add_batch_commands(CLI::App& app, Action& action);  // batch, merge
void add_bundle_command(CLI::App& app, Action& action);  // bundle gradescope|student
void add_validate_command(CLI::App& app, Action& action);
void add_similarity_command(CLI::App& app, Action& action);
void add_counters_command(CLI::App& app, Action& action);  // counters EMU.json GPU.json

}  // namespace gpulab::cli
