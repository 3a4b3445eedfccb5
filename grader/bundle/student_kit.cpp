// The contents of the student kit, and the checks that keep solutions out of it.
#include "student_kit.hpp"

#include <algorithm>
#include <stdexcept>

#include "data/dataset.hpp"

namespace gpulab::bundle {
namespace fs = std::filesystem;

std::vector<std::string> student_kit_labs(const fs::path& root, const std::vector<std::string>& labs_in) {
  std::vector<std::string> labs = labs_in;
  if (labs.empty()) {
    for (const auto& e : fs::directory_iterator(root / "assignments"))
      if (fs::exists(e.path() / "lab.json")) labs.push_back(e.path().filename().string());
    std::sort(labs.begin(), labs.end());
  }
  return labs;
}

std::vector<BundleFile> student_kit_files(const fs::path& root, const std::vector<std::string>& labs_in) {
  const std::vector<std::string> labs = student_kit_labs(root, labs_in);
  std::vector<BundleFile> files;
  add_file(files, root, "grader/bundle/student/README.md", "README.md");
  add_build_sources(files, root);
  add_tree(files, root, "examples");
  add_file(files, root, "docs/lab-format.md");
  add_file(files, root, "docs/results-format.md");
  add_file(files, root, "docs/exit-codes.md");  // results-format.md links to it
  for (const std::string& lab : labs) {
    add_tree(files, root, "assignments/" + lab);
    add_tree(files, root, "skeletons/" + lab);
    add_file(files, root, "reference/" + lab + "/gold.cpp");
    // Only public datasets: a manifest made from a hidden seed must never ship.
    const fs::path data = root / "datasets" / lab;
    if (fs::exists(data / "manifest.json")) {
      if (read_manifest(data, false).hidden) {
        throw std::runtime_error(data.string() +
                                 " holds hidden datasets; regenerate the public ones with `gpulab "
                                 "datagen " +
                                 lab + " --public` before making a student kit");
      }
      add_tree(files, root, "datasets/" + lab);
    }
  }
  return files;
}

void write_student_kit(const fs::path& root, const std::vector<std::string>& labs, const fs::path& out) {
  write_archive(student_kit_files(root, labs), {}, out, "gpulab-kit");
}

}  // namespace gpulab::bundle
