// `gpulab bundle student`: the kit students start from, a .tar.gz with one
// folder: the skeletons, the assignments, the public datasets, examples, and
// the grader (with the labs' CPU gold implementations, reference/<lab>/gold.cpp,
// which `gpulab test` needs to generate the large public cases), and a README
// saying how to build and test. Never in it: the reference solutions
// (reference/<lab>/<lab>.cu), the project's tests (whose variants are correct
// solutions), hidden seeds or hidden datasets.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "bundle_archive.hpp"

namespace gpulab::bundle {

// The labs a kit holds: `labs`, or when it is empty every folder of assignments/ with a lab.json (sorted).
std::vector<std::string> student_kit_labs(const std::filesystem::path& root, const std::vector<std::string>& labs);

// `labs` empty: every lab under assignments/.
std::vector<BundleFile> student_kit_files(const std::filesystem::path& root, const std::vector<std::string>& labs);
void write_student_kit(const std::filesystem::path& root, const std::vector<std::string>& labs,
                       const std::filesystem::path& out);

}  // namespace gpulab::bundle
