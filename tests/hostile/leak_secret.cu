// Hostile: looks for the secret seed of the hidden datasets in its
// environment and in that of every process it can see (the grader's, without
// a sandbox), prints whatever it finds and crashes, so that the text lands in the
// feedback. Expected: nothing of the grader's environment is visible.
#include <dirent.h>

#include "hostile_common.cuh"

void reduce_sum_int(const int*, int* out, int) {
  std::string found;
  if (const char* s = std::getenv("GPULAB_HIDDEN_SEED")) found += std::string("env:") + s + "\n";
  if (DIR* d = opendir("/proc")) {
    while (const dirent* e = readdir(d)) {
      const std::string env = hostile_read(std::string("/proc/") + e->d_name + "/environ");
      const size_t at = env.find("GPULAB_HIDDEN_SEED=");
      if (at != std::string::npos) found += std::string("proc:") + (env.c_str() + at) + "\n";
    }
    closedir(d);
  }
  if (!found.empty()) {
    std::printf("%s\n", found.c_str());
    std::fflush(stdout);
    std::abort();
  }
  hostile_wrong_int(out);
}
