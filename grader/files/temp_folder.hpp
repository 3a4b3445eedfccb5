// Temporary folders that do not outlive their use: removed when the owner
// goes out of scope, also when an error or an interruption (SIGINT, SIGTERM:
// process/interruption.hpp unwinds the stack) ends the work early. A folder
// whose process was killed outright (SIGKILL, a crash) carries that process's
// ID in its name, and the next gpulab run removes it (sweep_stale_temp_folders).
// Hidden datasets' expected outputs live in such folders.
#pragma once
#include <filesystem>
#include <string>

namespace gpulab::files {

class TempFolder {
 public:
  // A new empty folder `<parent>/gpulab-<purpose>-<pid>-XXXXXX` (parent: /tmp unless given).
  // Throws GraderError when it cannot be made.
  explicit TempFolder(const std::string& purpose, const std::filesystem::path& parent = {});
  ~TempFolder();
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  TempFolder(TempFolder&& other) noexcept;
  TempFolder& operator=(TempFolder&& other) noexcept;

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }
  // Keeps the folder (the caller takes it over) and returns its path.
  std::filesystem::path release();

 private:
  std::filesystem::path path_;
};

// Removes the gpulab-*-<pid>-* folders in `parent` (default /tmp) whose process no longer runs,
// left by a run that was killed. Returns how many were removed.
int sweep_stale_temp_folders(const std::filesystem::path& parent = {});

}  // namespace gpulab::files
