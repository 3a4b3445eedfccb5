// Hostile: 1 GB written to stdout, then a correct answer. Expected: the
// output limit stops the run; part "int" scores 0 with the limit named.
#include "hostile_common.cuh"

void reduce_sum_int(const int* in, int* out, int n) {
  static char chunk[1 << 20];
  std::memset(chunk, 'x', sizeof chunk);
  for (int i = 0; i < 1024; ++i) fwrite(chunk, 1, sizeof chunk, stdout);
  fflush(stdout);
  hostile_correct_int(in, out, n);
}
