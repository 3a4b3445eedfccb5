// Packing a chosen part of the project into an archive: a list of files
// (where each comes from, where it goes) plus generated files, staged in a
// temporary folder and written as .zip (CMake's `cmake -E tar --format=zip`,
// available wherever gpulab was built) or .tar.gz (tar).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace gpulab::bundle {

struct BundleFile {
  std::filesystem::path from;  // absolute
  std::string to;              // relative path inside the archive
};

struct GeneratedFile {
  std::string to;
  std::string content;
  bool executable = false;
  bool private_file = false;  // mode 0600 (a secret)
};

// Every file under root/relative (recursively; hidden files and build folders skipped), keeping the path.
void add_tree(std::vector<BundleFile>& files, const std::filesystem::path& root, const std::string& relative);
void add_file(std::vector<BundleFile>& files, const std::filesystem::path& root, const std::string& relative,
              const std::string& to = "");
// What building gpulab from the archive needs: CMakeLists.txt, cmake/, scripts/install-deps.sh and
// grader/ (every bundle and the student kit build it).
void add_build_sources(std::vector<BundleFile>& files, const std::filesystem::path& root);

// `top_folder` empty: files at the archive's root (what Gradescope expects of autograder.zip).
// The format follows the extension of `out`: .zip, .tar.gz or .tgz. Throws std::runtime_error.
void write_archive(const std::vector<BundleFile>& files, const std::vector<GeneratedFile>& generated,
                   const std::filesystem::path& out, const std::string& top_folder);

}  // namespace gpulab::bundle
