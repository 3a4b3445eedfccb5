// The contents of autograder.zip.
#include "gradescope_bundle.hpp"

#include "process/shell_quote.hpp"

namespace gpulab::bundle {
namespace fs = std::filesystem;

std::vector<BundleFile> gradescope_files(const fs::path& root, const LabSpec& lab) {
  std::vector<BundleFile> files;
  add_file(files, root, "grader/bundle/gradescope/setup.sh", "setup.sh");
  add_file(files, root, "grader/bundle/gradescope/run_autograder", "run_autograder");
  add_build_sources(files, root);
  add_tree(files, root, "assignments/" + lab.lab);
  add_tree(files, root, "reference/" + lab.lab);
  add_tree(files, root, "datasets/" + lab.lab);
  return files;
}

std::string autograder_conf(const LabSpec& lab, const GradescopeOptions& o) {
  std::string args;
  for (const std::string& a : o.grade_args) args += (args.empty() ? "" : " ") + process::shell_quote(a);
  return "# Read by setup.sh and run_autograder (bash); written by `gpulab bundle gradescope`.\n"
         "GPULAB_LAB=" +
         process::shell_quote(lab.lab) +
         "\n"
         "GPULAB_BACKEND=" +
         process::shell_quote(o.backend) +
         "\n"
         "GPULAB_GRADE_ARGS=(" +
         args +
         ")\n"
         "GPULAB_HIDDEN_SEED_ENV=" +
         process::shell_quote(lab.hidden_seed_env) +
         "\n"
         "# Graded submissions per student in any 24 hours (empty: no limit).\n"
         "GPULAB_MAX_SUBMISSIONS_PER_DAY=" +
         (o.max_submissions_per_day > 0 ? std::to_string(o.max_submissions_per_day) : std::string()) + "\n";
}

void write_gradescope_bundle(const fs::path& root, const LabSpec& lab, const GradescopeOptions& o,
                             const fs::path& out) {
  std::vector<GeneratedFile> generated = {{"autograder.conf", autograder_conf(lab, o), false, false}};
  if (!o.hidden_seed.empty()) generated.push_back({"hidden-seed", o.hidden_seed, false, true});
  write_archive(gradescope_files(root, lab), generated, out, "");
}

}  // namespace gpulab::bundle
