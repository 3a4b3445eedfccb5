// Buggy submission (one bug): the mask width is hard-coded to 5 (a #define, as
// in the lecture's first example) instead of using the mask_width argument.
// Right for 5-wide masks only.
#include <cuda_runtime.h>

#define MASK_WIDTH 5  // BUG: the mask width is a run-time argument (1 .. 15)

__global__ void conv1d_basic(const float* in, const float* mask, float* out, int width, int mask_width) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= width) return;
  const int start = i - MASK_WIDTH / 2;
  float value = 0.0f;
  for (int j = 0; j < MASK_WIDTH; ++j) {
    if (start + j >= 0 && start + j < width) value += in[start + j] * mask[j];
  }
  out[i] = value;
}

__global__ void conv2d_basic(const float* in, const float* mask, float* out, int height, int width, int mask_width) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= height || col >= width) return;
  float value = 0.0f;
  for (int i = 0; i < MASK_WIDTH; ++i) {
    for (int j = 0; j < MASK_WIDTH; ++j) {
      const int r = row - MASK_WIDTH / 2 + i, c = col - MASK_WIDTH / 2 + j;
      if (r >= 0 && r < height && c >= 0 && c < width) value += in[r * width + c] * mask[i * MASK_WIDTH + j];
    }
  }
  out[row * width + col] = value;
}

void convolution_1d(const float* in, const float* mask, float* out, int width, int mask_width) {
  conv1d_basic<<<(width + 255) / 256, 256>>>(in, mask, out, width, mask_width);
}

void convolution_2d(const float* in, const float* mask, float* out, int height, int width, int mask_width) {
  const dim3 block(16, 16);
  const dim3 grid((width + 15) / 16, (height + 15) / 16);
  conv2d_basic<<<grid, block>>>(in, mask, out, height, width, mask_width);
}
