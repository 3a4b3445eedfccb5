// Lab: convolution. Legitimate, as the course teaches it: the mask copied from device memory into
// __constant__ memory (cudaMemcpyToSymbol, device to device), a kernel per output element, and the
// first output copied back for a debugging print. Every correctness point kept.
#include <cstdio>

__constant__ float c_mask[15 * 15];

__global__ void conv_1d(const float* in, float* out, int width, int mask_width) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= width) return;
  float sum = 0;
  for (int j = 0; j < mask_width; ++j) {
    const int at = i + j - mask_width / 2;
    if (at >= 0 && at < width) sum += in[at] * c_mask[j];
  }
  out[i] = sum;
}

__global__ void conv_2d(const float* in, float* out, int height, int width, int mask_width) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  const int r = mask_width / 2;
  float sum = 0;
  for (int dy = 0; dy < mask_width; ++dy)
    for (int dx = 0; dx < mask_width; ++dx) {
      const int yy = y + dy - r, xx = x + dx - r;
      if (yy >= 0 && yy < height && xx >= 0 && xx < width) sum += in[yy * width + xx] * c_mask[dy * mask_width + dx];
    }
  out[y * width + x] = sum;
}

void convolution_1d(const float* in, const float* mask, float* out, int width, int mask_width) {
  cudaMemcpyToSymbol(c_mask, mask, mask_width * sizeof(float), 0, cudaMemcpyDeviceToDevice);
  conv_1d<<<(width + 255) / 256, 256>>>(in, out, width, mask_width);
  float first = 0;
  cudaMemcpy(&first, out, sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("out[0] = %g\n", first);
}

void convolution_2d(const float* in, const float* mask, float* out, int height, int width, int mask_width) {
  cudaMemcpyToSymbol(c_mask, mask, mask_width * mask_width * sizeof(float), 0, cudaMemcpyDeviceToDevice);
  const dim3 block(16, 16), grid((width + 15) / 16, (height + 15) / 16);
  conv_2d<<<grid, block>>>(in, out, height, width, mask_width);
  float first = 0;
  cudaMemcpy(&first, out, sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("out[0] = %g\n", first);
}
