// Buggy submission (one bug): ghost cells are replicated from the nearest
// border cell (indices clamped into the input) instead of being 0. A valid
// boundary policy in image processing, but not the one this lab specifies.
#include <cuda_runtime.h>

__device__ int clamp_index(int k, int n) { return k < 0 ? 0 : (k >= n ? n - 1 : k); }

__global__ void conv1d_basic(const float* in, const float* mask, float* out, int width, int mask_width) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= width) return;
  const int start = i - mask_width / 2;
  float value = 0.0f;
  for (int j = 0; j < mask_width; ++j) value += in[clamp_index(start + j, width)] * mask[j];  // BUG: ghosts must be 0
  out[i] = value;
}

__global__ void conv2d_basic(const float* in, const float* mask, float* out, int height, int width, int mask_width) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= height || col >= width) return;
  float value = 0.0f;
  for (int i = 0; i < mask_width; ++i) {
    for (int j = 0; j < mask_width; ++j) {
      const int r = clamp_index(row - mask_width / 2 + i, height);  // BUG: ghosts must be 0
      const int c = clamp_index(col - mask_width / 2 + j, width);
      value += in[r * width + c] * mask[i * mask_width + j];
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
