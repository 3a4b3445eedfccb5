// With racy_count.cuh and report.cpp: `gpulab run --race-check` on a program of several files
// whose racy kernel is in a header.
#include "racy_count.cuh"

void report(int count);  // report.cpp

int main() {
  int* d = nullptr;
  cudaMalloc(&d, sizeof(int));
  launch_count(d);
  int h = 0;
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);
  report(h);
  return 0;
}
