// Hostile: computes the right sum, then overwrites its input, in device memory
// and (if it can) in the dataset file itself. Expected: the harness reports
// the modified input; the dataset on disk is unchanged (read-only bind).
#include <fcntl.h>

#include "hostile_common.cuh"

__global__ void clobber(int* in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) in[i] = ~in[i];
}

void reduce_sum_int(const int* in, int* out, int n) {
  hostile_correct_int(in, out, n);
  clobber<<<hostile_blocks(n), 256>>>(const_cast<int*>(in), n);
  const int fd = open(hostile_input_path().c_str(), O_WRONLY);
  if (fd >= 0) {
    (void)!write(fd, "clobbered", 9);
    close(fd);
  }
}
