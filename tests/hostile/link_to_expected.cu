// Hostile: lets the harness write its (wrong) outputs, then, as the process
// exits, replaces each case's output_out.npy with a symbolic link to that
// case's expected output on the host. A grader that followed it would compare the expected output
// with itself. Expected: the link is refused.
#include "hostile_common.cuh"

namespace {
// At exit, every case's output becomes a link to that case's expected output (the harness runs a
// part's cases in one process, each writing into its own folder).
void swap_in_links() {
  for (const HostileCase& c : hostile_cases()) {
    const std::string output = c.output_dir + "/output_out.npy";
    unlink(output.c_str());
    (void)!symlink((hostile_dirname(c.input) + "/expected_out.npy").c_str(), output.c_str());
  }
}
}  // namespace

void reduce_sum_int(const int*, int* out, int) {
  static bool registered = false;
  if (!registered) std::atexit(swap_in_links);
  registered = true;
  hostile_wrong_int(out);
}
