// Forked helpers that act as another user: reachability, killing, cleaning.
#include "other_user.hpp"

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

namespace gpulab::sandbox {
namespace fs = std::filesystem;
namespace {
// One entry of getdents64 (the kernel's layout; glibc before 2.30 does not declare it).
struct linux_dirent64 {
  ino64_t d_ino;
  off64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

// In a forked child (async-signal-safe calls only): become uid/gid with no supplementary groups.
bool become(uid_t uid, gid_t gid) { return setgroups(0, nullptr) == 0 && setgid(gid) == 0 && setuid(uid) == 0; }

// Whether a process of `uid` other than the caller is alive (not a zombie). Async-signal-safe
// (raw getdents64, open, read): it runs in a child forked from a threaded grader.
bool live_process_of(uid_t uid) {
  const int dir = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir < 0) return false;
  alignas(8) char entries[8192];
  const pid_t self = getpid();
  bool found = false;
  for (long n; !found && (n = syscall(SYS_getdents64, dir, entries, sizeof entries)) > 0;) {
    for (long at = 0; !found && at < n;) {
      const auto* d = reinterpret_cast<const linux_dirent64*>(entries + at);
      at += d->d_reclen;
      long id = 0;
      const char* c = d->d_name;
      for (; *c >= '0' && *c <= '9'; ++c) id = id * 10 + (*c - '0');
      if (*c != 0 || id == 0 || id == self) continue;
      char path[64] = "/proc/";
      size_t len = 6;
      for (const char* q = d->d_name; *q && len < 48; ++q) path[len++] = *q;
      path[len] = 0;
      struct stat st {};
      if (stat(path, &st) != 0 || st.st_uid != uid) continue;
      const char tail[] = "/stat";
      for (size_t k = 0; k < sizeof tail; ++k) path[len + k] = tail[k];
      const int fd = open(path, O_RDONLY | O_CLOEXEC);
      if (fd < 0) continue;
      char text[512];
      const ssize_t got = read(fd, text, sizeof text - 1);
      close(fd);
      if (got <= 0) continue;
      char state = 0;
      for (ssize_t k = got - 1; k > 0; --k) {
        if (text[k] == ')' && k + 2 < got) {
          state = text[k + 2];
          break;
        }
      }
      found = state != 'Z' && state != 'X' && state != 0;
    }
  }
  close(dir);
  return found;
}

int wait_for(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
}  // namespace

std::vector<fs::path> reachable_by(uid_t uid, gid_t gid, const std::vector<fs::path>& paths) {
  // The strings are made before the fork: the child only calls stat and write.
  std::vector<std::string> names;
  for (const fs::path& p : paths) names.push_back(p.string());
  int fds[2];
  if (pipe(fds) != 0) return paths;  // cannot tell: assume the worst
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return paths;
  }
  if (pid == 0) {
    close(fds[0]);
    if (!become(uid, gid)) _exit(1);
    for (unsigned i = 0; i < names.size(); ++i) {
      // Reachable: the user can read it (a file's contents, a folder's list) or enter it (a
      // folder). Seeing that a name exists (stat) is not enough to read anything.
      struct stat st {};
      if (stat(names[i].c_str(), &st) != 0) continue;
      const int fd = open(names[i].c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
      if (fd >= 0) close(fd);
      const bool enters = S_ISDIR(st.st_mode) && access(names[i].c_str(), X_OK) == 0;
      if ((fd >= 0 || enters) && write(fds[1], &i, sizeof i) != sizeof i) _exit(1);
    }
    _exit(0);
  }
  close(fds[1]);
  std::vector<fs::path> found;
  unsigned i = 0;
  while (read(fds[0], &i, sizeof i) == sizeof i)
    if (i < paths.size()) found.push_back(paths[i]);
  close(fds[0]);
  if (wait_for(pid) != 0) return paths;
  return found;
}

int kill_every_process_of(uid_t uid, gid_t gid) {
  const pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (!become(uid, gid)) _exit(255);
    // kill(-1) as the user reaches every process of that user but this one; a fork bomb may
    // start new ones while it runs, so again until none is left alive. (Zombies, ended but not
    // yet reaped, are not alive; kill() may still report them signalled.)
    int rounds = 0;
    for (int i = 0; i < 200 && live_process_of(uid); ++i) {
      kill(-1, SIGKILL);
      ++rounds;
      const timespec pause{0, 5 * 1000 * 1000};
      nanosleep(&pause, nullptr);
    }
    _exit(rounds > 254 ? 254 : rounds);
  }
  return wait_for(pid);
}

int reap_orphans_of(uid_t uid) {
  int reaped = 0;
  const std::string self = std::to_string(getpid());
  for (int round = 0; round < 200; ++round) {
    bool waiting = false;  // a process of the user, ours to reap, not ended yet
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator("/proc", ec)) {
      const std::string name = e.path().filename().string();
      if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
      struct stat st {};
      if (stat(e.path().c_str(), &st) != 0 || st.st_uid != uid) continue;
      char text[512] = {};
      const int fd = open((e.path() / "stat").c_str(), O_RDONLY | O_CLOEXEC);
      if (fd < 0) continue;
      const ssize_t got = read(fd, text, sizeof text - 1);
      close(fd);
      const char* close_paren = got > 0 ? strrchr(text, ')') : nullptr;
      char state = 0;
      long parent = 0;
      if (!close_paren || std::sscanf(close_paren + 1, " %c %ld", &state, &parent) != 2) continue;
      if (std::to_string(parent) != self) continue;
      if (state == 'Z' || state == 'X') {
        const pid_t pid = static_cast<pid_t>(std::stol(name));
        if (waitpid(pid, nullptr, WNOHANG) == pid) ++reaped;
      } else {
        waiting = true;
      }
    }
    if (!waiting) break;
    const timespec pause{0, 5 * 1000 * 1000};
    nanosleep(&pause, nullptr);
  }
  return reaped;
}

int remove_files_of(uid_t uid) {
  int removed = 0;
  for (const char* dir : {"/tmp", "/var/tmp", "/dev/shm"}) {
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
      struct stat st {};
      if (lstat(e.path().c_str(), &st) != 0 || st.st_uid != uid) continue;
      std::error_code rm;
      fs::remove_all(e.path(), rm);  // does not follow links
      removed += !rm;
    }
  }
  return removed;
}

}  // namespace gpulab::sandbox
