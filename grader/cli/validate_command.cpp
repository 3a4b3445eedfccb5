// `gpulab validate <lab> DIR`: is this folder of dataset cases fit to grade
// with? Manifest and hashes, expected outputs recomputed by the gold
// implementation, and the reference solution run on every case.
#include <cstdio>

#include <fmt/format.h>

#include "commands.hpp"
#include "toolchain/backend_choice.hpp"
#include "grade/grading.hpp"
#include "validate/dataset_validation.hpp"

namespace gpulab::cli {

void add_validate_command(CLI::App& app, Action& action) {
  struct Args {
    std::string lab, dir, backend = "auto";
    bool no_reference = false;
  };
  auto a = std::make_shared<Args>();
  CLI::App* cmd = app.add_subcommand("validate", "Check a dataset folder: manifest, hashes, gold outputs, reference");
  cmd->add_option("lab", a->lab, "the lab")->required();
  cmd->add_option("dir", a->dir, "a folder written by gpulab datagen (with manifest.json)")
      ->required()
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--backend", a->backend,
                  "where the reference runs: auto (GPU if present, else emulator), emu or cuda")
      ->check(CLI::IsMember({"auto", "emu", "cuda"}));
  cmd->add_flag("--no-reference", a->no_reference, "only the manifest, hashes and gold (faster)");
  cmd->callback([a, &action] {
    action = [a] {
      const LabSpec lab = grade::load_lab(a->lab);
      validate::ValidationReport r = validate::check_manifest_and_gold(lab, a->dir);
      fmt::print("{}: {} cases; manifest and file hashes {}; gold recomputed for {} cases\n", a->dir, r.cases,
                 r.problems.empty() ? "ok" : "have problems", r.gold_checked);
      if (r.problems.empty() && !a->no_reference) {
        validate::check_with_reference(lab, a->dir, toolchain::choose_backend(a->backend), r);
        if (r.reference_ran) {
          fmt::print("reference solution: {} of {} cases pass\n", r.reference_passed, r.reference_cases);
        }
      }
      for (const std::string& p : r.problems) fmt::print(stderr, "problem: {}\n", p);
      for (const std::string& p : r.reference_failures) fmt::print(stderr, "reference fails {}\n", p);
      if (!r.ok()) {
        fmt::print(stderr, "gpulab: {} is not fit to grade with ({} problems)\n", a->dir,
                   r.problems.size() + r.reference_failures.size());
        return 1;
      }
      fmt::print("valid\n");
      return 0;
    };
  });
}

}  // namespace gpulab::cli
