// Buggy submission (one bug): the host functions compute the histograms on the
// CPU -- copy the input to the host, count there, copy the bins back. The
// results are right but no kernel runs: the lab is about GPU code, and the
// grader must not give it the points.
#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

void histogram_text(const char* text, unsigned int* bins, size_t n) {
  std::vector<char> h(n);
  cudaMemcpy(h.data(), text, n, cudaMemcpyDeviceToHost);
  unsigned int counts[7] = {0, 0, 0, 0, 0, 0, 0};
  for (size_t i = 0; i < n; ++i) {
    const unsigned char c = (unsigned char)h[i];
    if (c >= 'a' && c <= 'z') ++counts[(c - 'a') / 4];
  }
  cudaMemcpy(bins, counts, sizeof counts, cudaMemcpyHostToDevice);
}

void histogram_bytes(const unsigned char* data, unsigned int* bins, size_t n) {
  std::vector<unsigned char> h(n);
  cudaMemcpy(h.data(), data, n, cudaMemcpyDeviceToHost);
  std::vector<unsigned int> counts(256, 0);
  for (size_t i = 0; i < n; ++i) ++counts[h[i]];
  cudaMemcpy(bins, counts.data(), 256 * sizeof(unsigned int), cudaMemcpyHostToDevice);
}
