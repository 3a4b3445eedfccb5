// `gpulab bundle gradescope <lab>`: Gradescope's autograder.zip. At its root
// (which Gradescope unpacks to /autograder/source): setup.sh and
// run_autograder (grader/bundle/gradescope/), autograder.conf (the lab, the
// backend, the grading options, the submission limit), and the part of the project that builds gpulab
// and grades this lab: CMakeLists.txt, grader/, scripts/install-deps.sh, and
// the lab's assignments/, reference/ and datasets/ folders.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "bundle_archive.hpp"
#include "lab/lab_spec.hpp"

namespace gpulab::bundle {

struct GradescopeOptions {
  std::string backend = "auto";         // run_autograder's --backend
  std::vector<std::string> grade_args;  // e.g. --no-large
  std::string hidden_seed;              // written to hidden-seed (mode 0600) when not empty
  int max_submissions_per_day = 0;      // graded submissions per student in any 24 hours; 0: no limit
};

std::vector<BundleFile> gradescope_files(const std::filesystem::path& root, const LabSpec& lab);
std::string autograder_conf(const LabSpec& lab, const GradescopeOptions& o);
void write_gradescope_bundle(const std::filesystem::path& root, const LabSpec& lab, const GradescopeOptions& o,
                             const std::filesystem::path& out);

}  // namespace gpulab::bundle
