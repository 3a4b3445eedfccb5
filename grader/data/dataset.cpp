// Dataset manifests: their cases and files, and verified reading.
#include "dataset.hpp"

#include <fstream>
#include <nlohmann/json.hpp>

#include "sha256.hpp"

namespace gpulab {
namespace fs = std::filesystem;
using nlohmann::json;

const CaseFile* DatasetCase::file(const std::string& kind, const std::string& param) const {
  for (const CaseFile& f : files)
    if (f.kind == kind && f.param == param) return &f;
  return nullptr;
}

std::string DatasetCase::label() const {
  std::string s =
      (family == "timed" || family == "recheck" ? family + " case" : "dataset " + std::to_string(number)) + " (";
  bool first = true;
  for (const auto& [k, v] : sizes) {
    s += (first ? "" : ", ") + k + "=" + std::to_string(v);
    first = false;
  }
  return s + ")";
}

Manifest read_manifest(const fs::path& dir, bool verify) {
  const fs::path file = dir / "manifest.json";
  std::ifstream in(file);
  if (!in) throw DatasetError(file.string() + ": missing (generate it with `gpulab datagen`)");
  json j;
  try {
    j = json::parse(in);
  } catch (const json::parse_error& e) {
    throw DatasetError(file.string() + ": not valid JSON (" + e.what() + ")");
  }
  Manifest m;
  m.directory = dir;
  try {
    m.lab = j.at("lab").get<std::string>();
    m.lab_version = j.at("lab_version").get<std::string>();
    m.seed = j.at("seed").get<unsigned long long>();
    m.hidden = j.at("hidden").get<bool>();
    for (const json& cj : j.at("cases")) {
      DatasetCase c;
      c.id = cj.at("id").get<std::string>();
      c.part = cj.at("part").get<std::string>();
      c.family = cj.at("family").get<std::string>();
      c.number = cj.at("number").get<int>();
      c.is_public = cj.at("public").get<bool>();
      c.sizes = cj.at("sizes").get<std::map<std::string, long long>>();
      for (const json& fj : cj.at("files")) {
        c.files.push_back(CaseFile{fj.at("param"), fj.at("kind"), fj.at("file"), fj.at("dtype"),
                                   fj.at("shape").get<std::vector<size_t>>(), fj.at("sha256")});
      }
      m.cases.push_back(std::move(c));
    }
  } catch (const json::exception& e) {
    throw DatasetError(file.string() + ": malformed manifest (" + e.what() + ")");
  }
  if (verify) {
    for (const DatasetCase& c : m.cases) {
      for (const CaseFile& f : c.files) {
        const fs::path p = dir / f.file;
        if (!fs::is_regular_file(p)) throw DatasetError(p.string() + ": listed in the manifest but missing");
        if (sha256_file(p) != f.sha256) {
          throw DatasetError(p.string() +
                             ": content does not match the manifest's sha256 (corrupt or edited; "
                             "regenerate with `gpulab datagen`)");
        }
      }
    }
  }
  return m;
}

namespace {
NdArray checked_case_file(const Manifest& m, const CaseFile& f, NdArray a) {
  if (dtype_name(a.dtype()) != f.dtype || a.shape() != f.shape) {
    throw DatasetError((m.directory / f.file).string() + ": holds " + dtype_name(a.dtype()) + a.shape_text() +
                       " but the manifest says " + f.dtype + " of " + std::to_string(f.shape.size()) + " dims");
  }
  return a;
}
}  // namespace

NdArray load_case_file(const Manifest& m, const CaseFile& f) {
  return checked_case_file(m, f, read_npy(m.directory / f.file));
}

NdArray map_case_file(const Manifest& m, const CaseFile& f) {
  return checked_case_file(m, f, map_npy(m.directory / f.file));
}

}  // namespace gpulab
