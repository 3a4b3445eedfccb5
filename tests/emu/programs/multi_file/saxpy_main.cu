// A program split as course examples split theirs: the kernel and main here, the host-side
// check in check.cpp (C++) and the checksum in checksum.c (C), linked into one program by
// `gpulab run multi_file/saxpy_main.cu multi_file/check.cpp multi_file/checksum.c`.
#include <cstdio>
#include <vector>

#include "check.hpp"

extern "C" double checksum(const float* values, int n);

__global__ void saxpy(int n, float a, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f;
  }
  float *dx = nullptr, *dy = nullptr;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  saxpy<<<(n + 127) / 128, 128>>>(n, 2.0f, dx, dy);
  cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  std::printf("saxpy: %d wrong, checksum %.1f\n", count_wrong_saxpy(x, y, 2.0f, 1.0f), checksum(y.data(), n));
  return 0;
}
