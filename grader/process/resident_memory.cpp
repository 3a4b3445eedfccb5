// Implementation of resident_memory.hpp: one pass over /proc/<pid>/stat gives
// each process's parent and resident pages; the tree under the root is summed.
#include "process/resident_memory.hpp"

#include <dirent.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

#include <fmt/format.h>

namespace gpulab::process {
namespace {
struct ProcStat {
  pid_t parent = 0;
  long resident_pages = 0;
};

bool read_stat(pid_t pid, ProcStat& s) {
  const std::string path = fmt::format("/proc/{}/stat", pid);
  FILE* f = std::fopen(path.c_str(), "r");
  if (!f) return false;
  char buf[1024];
  const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  buf[n] = '\0';
  // "pid (comm) state ppid ... rss": comm may hold spaces and parentheses, so parse after the last ')'.
  const char* p = std::strrchr(buf, ')');
  if (!p) return false;
  ++p;
  int field = 2;  // the field just parsed: 2 is comm
  char* end = nullptr;
  while (*p && field < 24) {
    while (*p == ' ') ++p;
    ++field;
    if (field == 4) s.parent = static_cast<pid_t>(std::strtol(p, &end, 10));
    if (field == 24) s.resident_pages = std::strtol(p, &end, 10);
    while (*p && *p != ' ') ++p;
  }
  return field == 24;
}
}  // namespace

size_t tree_resident_bytes(pid_t root) {
  std::map<pid_t, ProcStat> all;
  if (DIR* d = opendir("/proc")) {
    while (const dirent* e = readdir(d)) {
      char* end = nullptr;
      const long pid = std::strtol(e->d_name, &end, 10);
      if (pid <= 0 || *end != '\0') continue;
      ProcStat s;
      if (read_stat(static_cast<pid_t>(pid), s)) all[static_cast<pid_t>(pid)] = s;
    }
    closedir(d);
  }
  std::map<pid_t, std::vector<pid_t>> children;
  for (const auto& [pid, s] : all) children[s.parent].push_back(pid);
  const long page = sysconf(_SC_PAGESIZE);
  size_t total = 0;
  std::vector<pid_t> todo{root};
  while (!todo.empty()) {
    const pid_t pid = todo.back();
    todo.pop_back();
    if (auto it = all.find(pid); it != all.end()) total += static_cast<size_t>(it->second.resident_pages) * page;
    if (auto it = children.find(pid); it != children.end())
      todo.insert(todo.end(), it->second.begin(), it->second.end());
  }
  return total;
}

}  // namespace gpulab::process
