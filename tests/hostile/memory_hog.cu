// Hostile: host code that allocates memory until it runs out (touching one
// byte of each block: filling them would only make the test slow).
// Expected: the memory limit stops it; part "int" scores 0, "out of memory".
#include <vector>

#include "hostile_common.cuh"

void reduce_sum_int(const int* in, int* out, int n) {
  std::vector<char*> blocks;
  for (;;) {
    char* p = new char[64 << 20];
    p[0] = 1;
    blocks.push_back(p);
  }
  hostile_correct_int(in, out, n);
}
