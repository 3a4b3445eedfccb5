// Implementation of temp_folder.hpp.
#include "files/temp_folder.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <regex>

#include "files/grader_error.hpp"

namespace gpulab::files {
namespace fs = std::filesystem;

namespace {
fs::path default_parent() { return "/tmp"; }
}  // namespace

TempFolder::TempFolder(const std::string& purpose, const fs::path& parent) {
  const fs::path base = parent.empty() ? default_parent() : parent;
  std::string tmpl = (base / ("gpulab-" + purpose + "-" + std::to_string(getpid()) + "-XXXXXX")).string();
  if (!mkdtemp(tmpl.data())) {
    throw GraderError("cannot create a temporary folder in " + base.string() + " (" + std::strerror(errno) +
                      "): check that it exists, is writable and the disk is not full");
  }
  path_ = tmpl;
}

TempFolder::~TempFolder() {
  if (path_.empty()) return;
  std::error_code ec;
  fs::remove_all(path_, ec);
}

TempFolder::TempFolder(TempFolder&& other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }

TempFolder& TempFolder::operator=(TempFolder&& other) noexcept {
  if (this != &other) {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
    path_ = std::move(other.path_);
    other.path_.clear();
  }
  return *this;
}

fs::path TempFolder::release() {
  fs::path p = std::move(path_);
  path_.clear();
  return p;
}

int sweep_stale_temp_folders(const fs::path& parent) {
  static const std::regex name(R"(gpulab-[A-Za-z0-9_.-]+-([0-9]+)-[A-Za-z0-9]{6})");  // purposes may hold dashes
  const fs::path base = parent.empty() ? default_parent() : parent;
  int removed = 0;
  std::error_code ec;
  for (auto it = fs::directory_iterator(base, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    std::smatch m;
    const std::string file = it->path().filename().string();
    if (!std::regex_match(file, m, name)) continue;
    const long pid = std::strtol(m[1].str().c_str(), nullptr, 10);
    if (pid <= 0 || pid == getpid()) continue;
    if (kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;  // still running, or not ours to judge
    std::error_code rec;
    if (it->is_directory(rec) && !it->is_symlink(rec) && fs::remove_all(it->path(), rec) > 0 && !rec) ++removed;
  }
  return removed;
}

}  // namespace gpulab::files
