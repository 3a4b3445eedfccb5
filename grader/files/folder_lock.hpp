// A lock on an output folder, so that two gpulab runs never write the same
// results at once (two `gpulab batch` into one --out would both grade every
// student and overwrite each other's records). It is an flock(2) on a file in
// the folder: the kernel drops it when the process ends in any way (SIGKILL
// included), so a killed run never leaves a stale lock behind.
#pragma once
#include <filesystem>
#include <string>

namespace gpulab::files {

class FolderLock {
 public:
  enum class Mode { exclusive, shared };
  FolderLock() = default;
  ~FolderLock();
  FolderLock(FolderLock&& other) noexcept;
  FolderLock& operator=(FolderLock&& other) noexcept;
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

  // Takes the lock `folder/name` without waiting. False when another process holds it (then
  // `holder` says which process, as far as it wrote it down); throws GraderError when the lock
  // file cannot be made (an unwritable folder).
  bool try_lock(const std::filesystem::path& folder, const std::string& name, Mode mode, std::string& holder);
  bool held() const { return fd_ >= 0; }

 private:
  int fd_ = -1;
};

}  // namespace gpulab::files
