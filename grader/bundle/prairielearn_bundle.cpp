// The contents of the PrairieLearn image's build context.
#include "prairielearn_bundle.hpp"

#include <stdexcept>

#include "data/dataset.hpp"
#include "process/shell_quote.hpp"

namespace gpulab::bundle {
namespace fs = std::filesystem;

std::vector<BundleFile> prairielearn_files(const fs::path& root, const LabSpec& lab) {
  std::vector<BundleFile> files;
  for (const char* script : {"Dockerfile", "build_image", "run_grader"})
    add_file(files, root, std::string("grader/bundle/prairielearn/") + script, script);
  add_build_sources(files, root);
  add_tree(files, root, "assignments/" + lab.lab);
  add_tree(files, root, "skeletons/" + lab.lab);
  add_file(files, root, "reference/" + lab.lab + "/gold.cpp");
  const fs::path data = root / "datasets" / lab.lab;
  if (fs::exists(data / "manifest.json") && read_manifest(data, false).hidden) {
    throw std::runtime_error(data.string() +
                             " holds hidden datasets, which must not go into an image students could "
                             "pull; regenerate the public ones with `gpulab datagen " +
                             lab.lab + " --public`");
  }
  add_tree(files, root, "datasets/" + lab.lab);
  return files;
}

std::string prairielearn_conf(const LabSpec& lab, const PrairieLearnOptions& o) {
  std::string args;
  for (const std::string& a : o.grade_args) args += (args.empty() ? "" : " ") + process::shell_quote(a);
  return "# Read by build_image and run_grader (bash); written by `gpulab bundle prairielearn`.\n"
         "GPULAB_LAB=" +
         process::shell_quote(lab.lab) +
         "\n"
         "GPULAB_GRADE_ARGS=(" +
         args +
         ")\n"
         "GPULAB_HIDDEN_SEED_ENV=" +
         process::shell_quote(lab.hidden_seed_env) + "\n";
}

void write_prairielearn_bundle(const fs::path& root, const LabSpec& lab, const PrairieLearnOptions& o,
                               const fs::path& out) {
  write_archive(prairielearn_files(root, lab), {{"prairielearn.conf", prairielearn_conf(lab, o), false, false}}, out,
                "");
}

}  // namespace gpulab::bundle
