// Host-only code in a .cpp file, linked into the CUDA program.
#include "include/host_stats.h"

Stats summarize(const float* values, int n) {
  Stats s{0.0f, values[0], values[0]};
  for (int i = 0; i < n; ++i) {
    s.sum += values[i];
    if (values[i] < s.min) s.min = values[i];
    if (values[i] > s.max) s.max = values[i];
  }
  return s;
}
