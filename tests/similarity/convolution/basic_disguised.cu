// Test corpus: a disguised copy of reference/convolution/progression/basic.cu (names changed, the
// kernels and host functions in another order, ++j written j++, dead code and a debug flag added).
#include <cuda_runtime.h>
#include <cstdio>

static bool g_verbose = false;

__global__ void naive2d(const float* image, const float* filt, float* result, int h, int w, int fw) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (y >= h || x >= w) return;
  const int top = y - fw / 2;
  const int lft = x - fw / 2;
  float total = 0.0f;
  for (int p = 0; p < fw; p++) {
    for (int q = 0; q < fw; q++) {
      const int yy = top + p, xx = lft + q;
      if (yy >= 0 && yy < h && xx >= 0 && xx < w) total += image[yy * w + xx] * filt[p * fw + q];
    }
  }
  result[y * w + x] = total;
}

void convolution_2d(const float* in, const float* mask, float* out, int height, int width, int mask_width) {
  if (g_verbose) printf("2d %d x %d\n", height, width);
  const dim3 threads(16, 16);
  const dim3 blocks((width + 15) / 16, (height + 15) / 16);
  naive2d<<<blocks, threads>>>(in, mask, out, height, width, mask_width);
}

__global__ void naive1d(const float* signal, const float* filt, float* result, int len, int fw) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= len) return;
  int wasted = idx * 3;  // not used
  (void)wasted;
  const int first = idx - fw / 2;
  float total = 0.0f;
  for (int q = 0; q < fw; q++) {
    if (first + q >= 0 && first + q < len) total += signal[first + q] * filt[q];
  }
  result[idx] = total;
}

void convolution_1d(const float* in, const float* mask, float* out, int width, int mask_width) {
  naive1d<<<(width + 255) / 256, 256>>>(in, mask, out, width, mask_width);
}
