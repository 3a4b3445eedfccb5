// A program in several files, as course exercises and samples are laid out:
// this .cu file, a header under include/ (found through -I) that declares a
// __shared__ tile and launches a kernel with <<<>>>, and a host-only .cpp file
// linked in. RADIUS comes from -D. Arguments after `--` reach the program,
// including those that start with '-'. Run as
//   gpulab run -I include -D RADIUS=2 main.cu host_stats.cpp -- -n=1000 -verbose
// Its output on a GPU is recorded in ../expected/probe_multi_file.txt.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "host_stats.h"
#include "moving_sum.cuh"

int main(int argc, char** argv) {
  int n = 100;
  bool verbose = false;
  for (int i = 1; i < argc; ++i) {
    std::printf("argument %d: %s\n", i, argv[i]);
    if (std::strncmp(argv[i], "-n=", 3) == 0) n = std::atoi(argv[i] + 3);
    if (std::strcmp(argv[i], "-verbose") == 0) verbose = true;
  }
  std::printf("n=%d, radius=%d, verbose=%s\n", n, RADIUS, verbose ? "yes" : "no");
  float* in = nullptr;
  float* out = nullptr;
  cudaMallocManaged(&in, n * sizeof(float));
  cudaMallocManaged(&out, n * sizeof(float));
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 10);
  const cudaError_t e = moving_sum(in, out, n);
  std::printf("moving sum: %s\n", cudaGetErrorName(e));
  const Stats s = summarize(out, n);
  std::printf("sum %.1f, min %.1f, max %.1f\n", s.sum, s.min, s.max);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
