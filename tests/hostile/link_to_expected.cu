// Hostile: lets the harness write its (wrong) output, then, as the process
// exits, replaces output_out.npy with a symbolic link to the expected output
// on the host. A grader that followed it would compare the expected output
// with itself. Expected: the link is refused.
#include "hostile_common.cuh"

namespace {
std::string expected_path;
void swap_in_link() {
  unlink("output_out.npy");
  (void)!symlink(expected_path.c_str(), "output_out.npy");
}
}  // namespace

void reduce_sum_int(const int*, int* out, int) {
  expected_path = hostile_dirname(hostile_input_path()) + "/expected_out.npy";
  std::atexit(swap_in_link);
  hostile_wrong_int(out);
}
