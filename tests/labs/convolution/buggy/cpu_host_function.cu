// Buggy submission (one bug): the host functions compute the convolutions on
// the CPU -- copy input and mask to the host, convolve there, copy the result
// back. The values are right but no kernel runs: the lab is about GPU code,
// and the grader must not give it the points.
#include <cuda_runtime.h>

#include <vector>

void convolution_1d(const float* in, const float* mask, float* out, int width, int mask_width) {
  std::vector<float> h_in(width), h_mask(mask_width), h_out(width);
  cudaMemcpy(h_in.data(), in, width * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(h_mask.data(), mask, mask_width * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < width; ++i) {
    float value = 0.0f;
    for (int j = 0; j < mask_width; ++j) {
      const int k = i + j - mask_width / 2;
      if (k >= 0 && k < width) value += h_in[k] * h_mask[j];
    }
    h_out[i] = value;
  }
  cudaMemcpy(out, h_out.data(), width * sizeof(float), cudaMemcpyHostToDevice);
}

void convolution_2d(const float* in, const float* mask, float* out, int height, int width, int mask_width) {
  const size_t n = (size_t)height * width;
  std::vector<float> h_in(n), h_mask(mask_width * mask_width), h_out(n);
  cudaMemcpy(h_in.data(), in, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(h_mask.data(), mask, h_mask.size() * sizeof(float), cudaMemcpyDeviceToHost);
  const int r = mask_width / 2;
  for (int row = 0; row < height; ++row) {
    for (int col = 0; col < width; ++col) {
      float value = 0.0f;
      for (int i = 0; i < mask_width; ++i)
        for (int j = 0; j < mask_width; ++j) {
          const int y = row + i - r, x = col + j - r;
          if (y >= 0 && y < height && x >= 0 && x < width) value += h_in[y * width + x] * h_mask[i * mask_width + j];
        }
      h_out[(size_t)row * width + col] = value;
    }
  }
  cudaMemcpy(out, h_out.data(), n * sizeof(float), cudaMemcpyHostToDevice);
}
