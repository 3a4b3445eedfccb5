// Hostile: opens files outside its folder. It tries to write the dataset it
// reads and the folder it lies in, the build cache (its own program and a
// neighbour's), root's home, /etc and the shared /tmp, and to read secrets.
// It always answers wrong; the test checks that no file outside the case's
// folder holds its marker and that nothing there changed.
#include <fcntl.h>

#include "hostile_common.cuh"

namespace {
// Put together at run time, so that only a successful write puts it in a file (not the build's sources).
std::string marker() { return std::string("HOSTILE") + "-WAS-" + "HERE\n"; }

void try_write(const std::string& path, bool append = false) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0644);
  if (fd < 0) return;
  const std::string m = marker();
  (void)!write(fd, m.data(), m.size());
  close(fd);
  std::printf("wrote %s\n", path.c_str());
}
}  // namespace

void reduce_sum_int(const int*, int* out, int) {
  const std::string input = hostile_input_path();
  const std::string self = hostile_self();
  const std::string cache = hostile_dirname(hostile_dirname(self));
  try_write(input);                                              // the dataset itself
  try_write(hostile_dirname(input) + "/gpulab-hostile-dataset");  // next to it
  try_write(self);                                               // its own build (cache poisoning)
  try_write(hostile_dirname(self) + "/gpulab-hostile-build");
  try_write(cache + "/zz-canary/program");                       // another submission's build
  try_write(cache + "/gpulab-hostile-cache");
  try_write("/tmp/gpulab-hostile-escape-" + std::to_string(getpid()));
  try_write("/root/gpulab-hostile");
  try_write("/etc/gpulab-hostile");
  try_write("/etc/passwd", true);
  try_write("/usr/gpulab-hostile");
  try_write("../gpulab-hostile-sibling");                        // the grading folder of the other cases
  for (const char* secret : {"/etc/shadow", "/root/.bash_history", "/proc/1/environ"}) {
    const std::string text = hostile_read(secret);
    if (!text.empty()) std::printf("read %s (%zu bytes)\n", secret, text.size());
  }
  hostile_wrong_int(out);
}
