// write_archive: stage, then cmake -E tar (zip) or tar (tar.gz).
#include "bundle_archive.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "files/temp_folder.hpp"
#include "files/atomic_file.hpp"
#include "process/run.hpp"

namespace gpulab::bundle {
namespace fs = std::filesystem;

namespace {
// Hidden files, and build folders someone may have made inside the tree.
bool skipped(const fs::directory_entry& e) {
  const std::string name = e.path().filename().string();
  if (name.empty() || name[0] == '.') return true;
  return e.is_directory() && (name.rfind("build", 0) == 0 || name == "__pycache__");
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
}  // namespace

void add_tree(std::vector<BundleFile>& files, const fs::path& root, const std::string& relative) {
  const fs::path base = root / relative;
  if (!fs::is_directory(base)) {
    throw std::runtime_error("cannot package '" + base.string() + "': no such folder in the project");
  }
  for (auto it = fs::recursive_directory_iterator(base); it != fs::recursive_directory_iterator(); ++it) {
    if (skipped(*it)) {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file()) files.push_back({it->path(), fs::relative(it->path(), root).generic_string()});
  }
}

void add_file(std::vector<BundleFile>& files, const fs::path& root, const std::string& relative,
              const std::string& to) {
  const fs::path p = root / relative;
  if (!fs::is_regular_file(p))
    throw std::runtime_error("cannot package '" + p.string() + "': no such file in the project");
  files.push_back({p, to.empty() ? relative : to});
}

void add_build_sources(std::vector<BundleFile>& files, const fs::path& root) {
  add_file(files, root, "CMakeLists.txt");
  add_tree(files, root, "cmake");
  add_file(files, root, "scripts/install-deps.sh");
  add_tree(files, root, "grader");
}

void write_archive(const std::vector<BundleFile>& files, const std::vector<GeneratedFile>& generated,
                   const fs::path& out, const std::string& top_folder) {
  const std::string name = out.filename().string();
  const bool zip = ends_with(name, ".zip");
  if (!zip && !ends_with(name, ".tar.gz") && !ends_with(name, ".tgz")) {
    throw std::runtime_error("'" + out.string() + "': the archive's name must end in .zip, .tar.gz or .tgz");
  }
  const files::TempFolder stage_folder("bundle");  // removed on every path, Ctrl-C included
  const fs::path& stage = stage_folder.path();
  const fs::path base = top_folder.empty() ? stage : stage / top_folder;
  for (const BundleFile& f : files) {
    fs::create_directories((base / f.to).parent_path());
    fs::copy_file(f.from, base / f.to, fs::copy_options::overwrite_existing);
  }
  for (const GeneratedFile& g : generated) {
    const fs::path p = base / g.to;
    fs::create_directories(p.parent_path());
    files::write_file_atomically(p, g.content);
    fs::permissions(p, g.private_file ? fs::perms::owner_read | fs::perms::owner_write
                       : g.executable ? fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                            fs::perms::others_read | fs::perms::others_exec
                                      : fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                                            fs::perms::others_read);
  }
  const fs::path target = fs::absolute(out);
  if (!target.parent_path().empty()) fs::create_directories(target.parent_path());
  fs::remove(target);
  std::vector<std::string> entries;
  for (const auto& e : fs::directory_iterator(stage)) entries.push_back(e.path().filename().string());
  std::sort(entries.begin(), entries.end());
  std::vector<std::string> argv;
  if (zip) {
    argv = {GPULAB_CMAKE_COMMAND, "-E",           "chdir", stage.string(), GPULAB_CMAKE_COMMAND, "-E", "tar", "cf",
            target.string(),      "--format=zip", "--"};
  } else {
    argv = {"tar", "-C", stage.string(), "-czf", target.string(), "--owner=0", "--group=0", "--numeric-owner", "--"};
  }
  argv.insert(argv.end(), entries.begin(), entries.end());
  process::ProcessOptions o;
  o.search_path = true;
  const process::ProcessResult p = process::run(argv, o);
  if (!p.started() || p.status() != 0 || !fs::is_regular_file(target)) {
    throw std::runtime_error("could not write the archive '" + out.string() +
                             "': " + (p.started() ? p.output : p.spawn_error));
  }
}

}  // namespace gpulab::bundle
