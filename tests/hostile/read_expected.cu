// Hostile: reads the expected output that lies next to its input in the
// dataset folder (and the reference solution) and answers with it. Without the
// sandbox this passes every case; in it the files are not there.
#include "hostile_common.cuh"

void reduce_sum_int(const int*, int* out, int n) {
  const std::string input = hostile_input_path(n);  // this case's input, among the request's cases
  const std::string expected = hostile_read(hostile_dirname(input) + "/expected_out.npy");
  const std::string reference = hostile_read(hostile_dirname(hostile_dirname(hostile_dirname(hostile_dirname(input)))) +
                                             "/reference/reduction/reduction.cu");
  if (!reference.empty()) std::printf("read the reference solution (%zu bytes)\n", reference.size());
  if (expected.size() >= 4) {
    int value;
    std::memcpy(&value, expected.data() + expected.size() - 4, 4);  // .npy: the one int32 comes last
    hostile_store<<<1, 1>>>(out, value);
    return;
  }
  hostile_wrong_int(out);
}
