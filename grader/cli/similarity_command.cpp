// `gpulab similarity <lab> <submissions> --out DIR`: the code similarity report of a class
// (grader/similarity/): DIR/similarity.csv, DIR/index.html and a side-by-side page per flagged pair.
#include <cstdio>

#include <fmt/format.h>

#include "commands.hpp"
#include "grade/grading.hpp"
#include "similarity/class_similarity.hpp"

namespace gpulab::cli {

namespace {
struct SimilarityArgs {
  std::string lab, submissions, out;
  similarity::SimilarityOptions options;
};
}  // namespace

void add_similarity_command(CLI::App& app, Action& action) {
  auto a = std::make_shared<SimilarityArgs>();
  CLI::App* cmd = app.add_subcommand(
      "similarity", "Rank pairs of a class's submissions by code similarity (renaming and reordering see-through)");
  cmd->add_option("lab", a->lab, "the lab")->required();
  cmd->add_option("submissions", a->submissions,
                  "folder with one folder (or .cu file) per student, or Gradescope's unzipped export")
      ->required()
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--out", a->out, "where similarity.csv, index.html and the pair pages go")->required();
  cmd->add_option("--threshold", a->options.threshold, "pairs at or above this similarity (0 to 1) get a page")
      ->capture_default_str();
  cmd->add_option("--common-fraction", a->options.common_fraction,
                  "ignore code held by more than this fraction of the class (the lab's common idioms)")
      ->capture_default_str();
  cmd->add_option("--max-pages", a->options.max_pages, "side-by-side pages for at most this many pairs")
      ->capture_default_str();
  cmd->add_option("--kgram", a->options.k, "tokens per k-gram: common runs shorter than this are ignored")
      ->capture_default_str();
  cmd->add_option("--window", a->options.window,
                  "winnowing window: every common run of window + kgram - 1 tokens is found")
      ->capture_default_str();
  cmd->callback([a, &action] {
    action = [a] {
      const LabSpec lab = grade::load_lab(a->lab);
      const similarity::SimilarityReport r = similarity::class_similarity(
          lab.lab, a->submissions, toolchain::project_root() / "skeletons" / lab.lab, a->options);
      for (const std::string& w : r.warnings) fmt::print(stderr, "gpulab: warning: {}\n", w);
      for (const std::string& s : r.not_compared) fmt::print(stderr, "gpulab: not compared: {}\n", s);
      const similarity::FolderOutcome f = similarity::write_similarity_folder(a->out, r);
      fmt::print(
          "{} submissions compared: {} pairs share code, {} at or above {:.2f} ({} pages)\n"
          "results: {}/index.html, {}/similarity.csv\n",
          r.documents.size(), r.comparison.pairs.size(), f.flagged, a->options.threshold, f.pages, a->out, a->out);
      return 0;
    };
  });
}

}  // namespace gpulab::cli
