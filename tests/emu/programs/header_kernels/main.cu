// The kernels and their launches are in device/reverse.cuh; this file only calls them.
#include <cstdio>
#include <vector>

#include "device/reverse.cuh"

int main() {
  const int tiles = 4, n = tiles * kTile;
  std::vector<int> h(n);
  for (int i = 0; i < n; ++i) h[i] = i;
  int* d = nullptr;
  cudaMalloc(&d, n * sizeof(int));
  cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  reverse_then_sum(d, tiles);
  cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);
  // Tile t holds t*32..t*32+31 reversed: its first value becomes the tile's sum, the second t*32+30.
  std::printf("header kernels: sums %d %d %d %d, second %d %d\n", h[0], h[32], h[64], h[96], h[1], h[33]);
  return 0;
}
