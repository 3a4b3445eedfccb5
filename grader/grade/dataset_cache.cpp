// Implementation of dataset_cache.hpp.
#include "grade/dataset_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <fstream>
#include <iterator>

#include "data/verified_stamp.hpp"

#include "files/temp_folder.hpp"
#include "toolchain/content_hash.hpp"
#include "toolchain/toolchain.hpp"

namespace gpulab::grade {
namespace fs = std::filesystem;

namespace {
// The cached folder `dir`, or, when it is missing or damaged, the datasets generated aside (in a
// folder of mode 0700) and renamed into place, so graders running in parallel never read half a
// dataset; the folder aside goes on every path (Ctrl-C included), or the next run sweeps it.
// `readable`: the folder is made 0755 as the cache's other folders.
Manifest cached_or_generated(const fs::path& dir, bool readable, const std::function<void(const fs::path&)>& generate,
                             bool* generated) {
  if (generated) *generated = false;
  if (fs::exists(dir / "manifest.json")) {
    try {
      return read_manifest_verified_once(dir);
    } catch (const DatasetError&) {
      fs::remove_all(dir);
    }
  }
  if (generated) *generated = true;
  fs::create_directories(dir.parent_path());
  files::TempFolder aside("datasets", dir.parent_path());
  generate(aside.path());
  if (readable) chmod(aside.path().c_str(), 0755);  // as the cache's other folders (the sandbox's user reads it)
  std::error_code ec;
  fs::rename(aside.path(), dir, ec);
  if (!ec) aside.release();  // else another grader finished first: use its copy
  return read_manifest_verified_once(dir);
}
}  // namespace

Manifest cached_hidden_datasets(const LabSpec& lab, unsigned long long seed, bool* generated) {
  std::ifstream in(lab.file, std::ios::binary);
  const std::string lab_json((std::istreambuf_iterator<char>(in)), {});
  const std::string key =
      toolchain::ContentHash().add("hidden datasets").add(std::to_string(seed)).add(lab_json).hex().substr(0, 16);
  const fs::path dir = toolchain::cache_directory() / "datasets" / (lab.lab + "-v" + lab.version + "-hidden-" + key);
  return cached_or_generated(
      dir, false, [&](const fs::path& out) { generate_datasets(lab, seed, true, Selection::all, out); }, generated);
}

Manifest cached_public_datasets(const LabSpec& lab, Selection which, bool* generated) {
  std::string tag = "large";
  if (which == Selection::performance) {
    // Named by what the timed cases are, so editing them in lab.json makes new ones.
    toolchain::ContentHash h;
    for (const PartSpec& p : lab.parts) {
      if (!p.performance) continue;
      h.add(p.name).add(nlohmann::json(p.performance->sizes).dump());
      for (const auto& [name, dist] : p.performance->inputs) h.add(name).add(dist.dump());
    }
    tag = "performance-" + h.hex().substr(0, 12);
  }
  const fs::path dir = toolchain::cache_directory() / "datasets" /
                       (lab.lab + "-v" + lab.version + "-seed" + std::to_string(lab.public_seed) + "-" + tag);
  return cached_or_generated(
      dir, true, [&](const fs::path& out) { generate_datasets(lab, lab.public_seed, false, which, out); }, generated);
}

}  // namespace gpulab::grade
