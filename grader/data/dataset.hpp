// Dataset cases on disk (gold/dataset_generation.hpp writes them), and the manifest
// (case, part, family, sizes, seed, and dtype/shape/sha256 of every file) that
// lets the grader check each file before trusting it.
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "npy_io.hpp"

namespace gpulab {

struct CaseFile {
  std::string param;
  std::string kind;  // "input", "expected" or "scale"
  std::string file;  // relative to the dataset directory
  std::string dtype;
  std::vector<size_t> shape;
  std::string sha256;
};

struct DatasetCase {
  std::string id;  // "<part>-<family>-<k>"
  std::string part;
  std::string family;
  int number = 0;  // "dataset N" within its part, 1-based
  bool is_public = true;
  std::map<std::string, long long> sizes;
  std::vector<CaseFile> files;

  const CaseFile* file(const std::string& kind, const std::string& param) const;
  std::string label() const;  // "dataset 7 (n=1000003)"
};

struct Manifest {
  std::string lab;
  std::string lab_version;
  unsigned long long seed = 0;
  bool hidden = false;
  std::vector<DatasetCase> cases;
  std::filesystem::path directory;
};

// Reads DIR/manifest.json; with verify, checks every file's size, shape and hash (DatasetError names the file).
Manifest read_manifest(const std::filesystem::path& dir, bool verify);
NdArray load_case_file(const Manifest& m, const CaseFile& f);  // reads and checks dtype/shape
// The same, its elements mapped from the file rather than copied (npy_io.hpp's map_npy).
NdArray map_case_file(const Manifest& m, const CaseFile& f);

}  // namespace gpulab
