// Implementation of folder_lock.hpp.
#include "files/folder_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <signal.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "files/grader_error.hpp"

namespace gpulab::files {

FolderLock::~FolderLock() {
  if (fd_ >= 0) close(fd_);  // closing the descriptor releases the lock
}

FolderLock::FolderLock(FolderLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

FolderLock& FolderLock::operator=(FolderLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

bool FolderLock::try_lock(const std::filesystem::path& folder, const std::string& name, Mode mode,
                          std::string& holder) {
  const std::filesystem::path path = folder / name;
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    throw GraderError("cannot create the lock file " + path.string() + " (" + std::strerror(errno) +
                      "): check that the folder is writable");
  }
  if (flock(fd, (mode == Mode::exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0) {
    char buf[128] = {};
    const ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    // The last exclusive holder wrote its PID; name it only if that process still runs.
    const long pid = n > 8 && std::strncmp(buf, "process ", 8) == 0 ? std::strtol(buf + 8, nullptr, 10) : 0;
    holder = pid > 0 && kill(static_cast<pid_t>(pid), 0) == 0 ? "process " + std::to_string(pid) : "another process";
    close(fd);
    return false;
  }
  if (mode == Mode::exclusive) {  // who holds it, for the message another run prints
    const std::string me = "process " + std::to_string(getpid()) + "\n";
    if (ftruncate(fd, 0) == 0) (void)!pwrite(fd, me.data(), me.size(), 0);
  }
  if (fd_ >= 0) close(fd_);
  fd_ = fd;
  return true;
}

}  // namespace gpulab::files
