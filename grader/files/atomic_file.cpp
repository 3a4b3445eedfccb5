// write_file_atomically: temp file + fsync + rename(2), which POSIX makes atomic within one file system;
// a device or pipe (--out /dev/null) is written into instead.
#include "files/atomic_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "files/grader_error.hpp"
#include "files/utf8_text.hpp"

namespace gpulab::files {

namespace {
// A target that is not a file but a device, a pipe or a socket (`--out /dev/null`, `/dev/stdout`):
// written into as it is. Renaming a new file onto it would replace /dev/null itself.
bool write_into_special(const std::filesystem::path& target, std::string_view bytes) {
  struct stat st {};
  if (::stat(target.c_str(), &st) != 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) return false;
  const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    throw GraderError("cannot write '" + target.string() + "' (open: " + std::strerror(errno) + ")");
  }
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      throw GraderError("cannot write '" + target.string() + "' (write: " + why + ")");
    }
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  return true;
}
}  // namespace

void write_file_atomically(const std::filesystem::path& target, std::string_view bytes) {
  if (write_into_special(target, bytes)) return;
  static std::atomic<unsigned> counter{0};
  const std::filesystem::path tmp =
      target.string() + ".tmp-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
  auto fail = [&](const char* what) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    throw GraderError("cannot write '" + target.string() + "' (" + what + ": " + why +
                      "); check that its folder exists and is writable and the disk is not full");
  };
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("create");
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      ::close(fd);
      fail("write");
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) {
    ::close(fd);
    fail("fsync");
  }
  if (::close(fd) != 0) fail("close");
  if (::rename(tmp.c_str(), target.c_str()) != 0) fail("rename");
}

void write_json_atomically(const std::filesystem::path& target, const nlohmann::json& value, int indent) {
  write_file_atomically(target, dump_json(value, indent) + "\n");
}

std::string read_whole_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw GraderError("cannot read '" + path.string() + "': no such file or not readable");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

int remove_stale_partial_files(const std::filesystem::path& folder) {
  static const std::regex name(R"(.+\.tmp-([0-9]+)-[0-9]+)");
  int removed = 0;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(folder, ec); !ec && it != std::filesystem::directory_iterator();
       it.increment(ec)) {
    std::smatch m;
    const std::string file = it->path().filename().string();
    if (!std::regex_match(file, m, name)) continue;
    const long pid = std::strtol(m[1].str().c_str(), nullptr, 10);
    if (pid <= 0 || pid == getpid() || kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    std::error_code rec;
    if (it->is_regular_file(rec) && std::filesystem::remove(it->path(), rec)) ++removed;
  }
  return removed;
}

}  // namespace gpulab::files
