// Host code that writes device memory directly (a result "computed" on the CPU): a segmentation
// fault on a GPU, reported by the emulator as a write.
#include <cstdio>

int main() {
  int* out = nullptr;
  cudaMalloc(&out, sizeof(int));
  std::printf("writing from the host\n");
  std::fflush(stdout);
  *out = 42;  // the host writes device memory
  std::printf("wrote\n");
  return 0;
}
