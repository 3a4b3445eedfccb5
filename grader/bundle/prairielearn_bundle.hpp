// `gpulab bundle prairielearn <lab>`: the Docker build context of the image
// PrairieLearn's external grader runs (docs/prairielearn.md). At its root:
// Dockerfile, build_image and run_grader (grader/bundle/prairielearn/),
// prairielearn.conf (the lab and the grading options), and what builds gpulab
// and grades this lab on the emulator: CMakeLists.txt, grader/,
// scripts/install-deps.sh, the lab's assignments/, skeletons/ and public
// datasets/, and its CPU gold implementation. No reference solution and no
// hidden seed (the seed is the question's tests/hidden-seed), so the image
// can be pushed to a public registry.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "bundle_archive.hpp"
#include "lab/lab_spec.hpp"

namespace gpulab::bundle {

struct PrairieLearnOptions {
  std::vector<std::string> grade_args;  // e.g. --no-large, --no-sandbox
};

// Throws std::runtime_error when the lab's datasets/ folder was made from a hidden seed.
std::vector<BundleFile> prairielearn_files(const std::filesystem::path& root, const LabSpec& lab);
std::string prairielearn_conf(const LabSpec& lab, const PrairieLearnOptions& o);
void write_prairielearn_bundle(const std::filesystem::path& root, const LabSpec& lab, const PrairieLearnOptions& o,
                               const std::filesystem::path& out);

}  // namespace gpulab::bundle
