// `gpulab datagen <lab>`: write dataset cases (inputs, expected outputs, error
// scales, manifest.json) from lab.json and the lab's gold implementation;
// `gpulab contract <lab>`: print the host functions a submission must define.
#include <cstdio>
#include <cstdlib>
#include <string>

#include <sys/stat.h>

#include <optional>

#include <fmt/format.h>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "files/atomic_file.hpp"
#include "files/grader_error.hpp"
#include "files/temp_folder.hpp"
#include "gold/dataset_generation.hpp"
#include "grade/grading.hpp"
#include "harness/binding_generator.hpp"
#include "toolchain/content_hash.hpp"

namespace gpulab::cli {
namespace {
struct DatagenArgs {
  std::string lab;
  std::string out;
  unsigned long long seed = 0;
  bool seed_given = false;
  bool public_set = false;
  bool large = false;
  bool hidden = false;
  std::string part;
};
namespace fs = std::filesystem;

// The lab whose datasets `folder` holds (its manifest.json's "lab"), or "" if none.
std::string lab_of_dataset_folder(const fs::path& folder) {
  std::error_code ec;
  if (!fs::is_regular_file(folder / "manifest.json", ec)) return "";
  try {
    return nlohmann::json::parse(files::read_whole_file(folder / "manifest.json")).value("lab", std::string());
  } catch (const nlohmann::json::exception&) {
    return "";  // not a manifest gpulab can read: nothing to protect
  }
}

// Generates into a folder beside `out`, then swaps it in: an interrupted or failed run leaves
// the old datasets as they were, never half of new ones.
Manifest generate_replacing(const LabSpec& lab, unsigned long long seed, bool hidden, Selection which,
                            const fs::path& out_in, const std::string& part) {
  const fs::path out = fs::absolute(out_in);
  fs::create_directories(out.parent_path());
  files::sweep_stale_temp_folders(out.parent_path());  // what a killed datagen left beside it
  files::TempFolder fresh("datagen", out.parent_path());
  generate_datasets(lab, seed, hidden, which, fresh.path(), part);  // its manifest is read back from `out`
  chmod(fresh.path().c_str(), 0755);
  std::error_code ec;
  std::optional<files::TempFolder> old;
  if (fs::exists(out, ec)) {
    old.emplace("datagen-old", out.parent_path());
    fs::rename(out, old->path() / "previous", ec);
    if (ec) throw files::GraderError("cannot replace " + out.string() + " (" + ec.message() + ")");
  }
  fs::rename(fresh.path(), out, ec);
  if (ec && old) {  // put the old datasets back before giving up
    std::error_code back;
    fs::rename(old->path() / "previous", out, back);
  }
  if (ec) throw files::GraderError("cannot move the new datasets into " + out.string() + " (" + ec.message() + ")");
  fresh.release();
  return read_manifest(out, false);
}
}  // namespace

void add_datagen_command(CLI::App& app, Action& action) {
  auto a = std::make_shared<DatagenArgs>();
  CLI::App* cmd = app.add_subcommand("datagen", "Generate dataset cases with expected outputs");
  cmd->add_option("lab", a->lab, "the lab")->required();
  cmd->add_option("--out", a->out, "output folder (default for --public: datasets/<lab>)");
  cmd->add_option("--seed", a->seed, "random seed (default: the lab's public seed)");
  cmd->add_flag("--public", a->public_set, "regenerate the committed public datasets (small families, public seed)");
  cmd->add_flag("--large", a->large, "only the families too large to commit");
  cmd->add_flag("--hidden", a->hidden, "every family, seeded from the secret in the lab's hidden.seed_env variable");
  cmd->add_option("--part", a->part, "only this part");
  cmd->callback([a, &action] {
    action = [a] {
      const LabSpec lab = grade::load_lab(a->lab);
      if (!a->part.empty()) lab.part(a->part);
      unsigned long long seed = a->seed ? a->seed : lab.public_seed;
      Selection which = a->large ? Selection::public_large : Selection::public_small;
      std::string out = a->out;
      if (a->hidden && (a->seed || a->public_set || a->large)) {
        fmt::print(stderr,
                   "gpulab: --hidden takes its seed from {} and makes every family; it does not go with "
                   "--seed, --public or --large\n",
                   lab.hidden_seed_env);
        return 2;
      }
      if (a->hidden) {
        const char* secret = std::getenv(lab.hidden_seed_env.c_str());
        if (!secret || !*secret) {
          fmt::print(stderr, "gpulab: --hidden needs the secret seed in the environment variable {}\n",
                     lab.hidden_seed_env);
          return 2;
        }
        seed = std::stoull(toolchain::ContentHash().add(secret).add(lab.lab).hex(), nullptr, 16);
        which = Selection::all;
      }
      if (out.empty()) {
        if (!a->public_set) {
          fmt::print(stderr, "gpulab: say where to write with --out DIR (or --public for datasets/{})\n", lab.lab);
          return 2;
        }
        out = (toolchain::project_root() / "datasets" / lab.lab).string();
      }
      if (const std::string other = lab_of_dataset_folder(out); !other.empty() && other != lab.lab) {
        fmt::print(stderr,
                   "gpulab: {} holds the datasets of lab '{}' (its manifest.json says so); writing lab '{}' "
                   "there would replace them: choose an empty folder, or that lab's own name\n",
                   out, other, lab.lab);
        return exit_code::bad_input;
      }
      const Manifest m = generate_replacing(lab, seed, a->hidden, which, out, a->part);
      // The hidden seed is derived from the secret: printing it would give the hidden cases away.
      const std::string seed_text =
          a->hidden ? "hidden seed from " + lab.hidden_seed_env : "seed " + std::to_string(seed);
      fmt::print("{} cases of lab '{}' written to {} ({})\n", m.cases.size(), lab.lab, out, seed_text);
      return 0;
    };
  });

  auto lab_name = std::make_shared<std::string>();
  CLI::App* contract = app.add_subcommand("contract", "Print the host functions a submission must define");
  contract->add_option("lab", *lab_name, "the lab")->required();
  contract->callback([lab_name, &action] {
    action = [lab_name] {
      std::fputs(harness::generate_contract_header(grade::load_lab(*lab_name)).c_str(), stdout);
      return 0;
    };
  });
}

}  // namespace gpulab::cli
