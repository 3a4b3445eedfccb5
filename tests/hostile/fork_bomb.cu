// Hostile: a fork bomb. Every process forks until fork fails, then waits.
// Expected: the process limit stops it (the grader samples how many run),
// the time limit ends it, and no process is left behind.
#include <signal.h>

#include "hostile_common.cuh"

void reduce_sum_int(const int*, int*, int) {
  for (;;) {
    if (fork() < 0) pause();
  }
}
