// Course progression step, timed by `gpulab bench convolution --variants` (it must score
// full marks): the course's final form -- the mask
// copied into __constant__ memory with cudaMemcpyToSymbol (device to device,
// since the harness passes a device pointer), tiled kernels with halo cells in
// shared memory. 1-D: each block loads its tile plus halos in a strided loop;
// 2-D: 16 x 16 threads compute a 16 x 16 output tile and load the larger
// input tile in a loop (some threads load more than one cell).
#include <cuda_runtime.h>

#define MAX_MASK_WIDTH 15
#define TILE_SIZE 256
#define TILE_2D 16

__constant__ float M_c[MAX_MASK_WIDTH * MAX_MASK_WIDTH];

__global__ void conv1d_const(const float* in, float* out, int width, int mask_width) {
  __shared__ float tile[TILE_SIZE + MAX_MASK_WIDTH - 1];
  const int n = mask_width / 2;
  const int base = blockIdx.x * TILE_SIZE;
  for (int s = threadIdx.x; s < TILE_SIZE + mask_width - 1; s += blockDim.x) {
    const int k = base - n + s;
    tile[s] = (k >= 0 && k < width) ? in[k] : 0.0f;
  }
  __syncthreads();
  const int i = base + threadIdx.x;
  if (i < width) {
    float value = 0.0f;
    for (int j = 0; j < mask_width; ++j) value += tile[threadIdx.x + j] * M_c[j];
    out[i] = value;
  }
}

__global__ void conv2d_const(const float* in, float* out, int height, int width, int mask_width) {
  __shared__ float tile[TILE_2D + MAX_MASK_WIDTH - 1][TILE_2D + MAX_MASK_WIDTH - 1];
  const int n = mask_width / 2;
  const int in_tile = TILE_2D + mask_width - 1;
  const int row0 = blockIdx.y * TILE_2D - n, col0 = blockIdx.x * TILE_2D - n;
  for (int y = threadIdx.y; y < in_tile; y += TILE_2D) {
    for (int x = threadIdx.x; x < in_tile; x += TILE_2D) {
      const int r = row0 + y, c = col0 + x;
      tile[y][x] = (r >= 0 && r < height && c >= 0 && c < width) ? in[r * width + c] : 0.0f;
    }
  }
  __syncthreads();
  const int row = blockIdx.y * TILE_2D + threadIdx.y, col = blockIdx.x * TILE_2D + threadIdx.x;
  if (row < height && col < width) {
    float value = 0.0f;
    for (int i = 0; i < mask_width; ++i)
      for (int j = 0; j < mask_width; ++j) value += tile[threadIdx.y + i][threadIdx.x + j] * M_c[i * mask_width + j];
    out[row * width + col] = value;
  }
}

void convolution_1d(const float* in, const float* mask, float* out, int width, int mask_width) {
  cudaMemcpyToSymbol(M_c, mask, mask_width * sizeof(float), 0, cudaMemcpyDeviceToDevice);
  conv1d_const<<<(width + TILE_SIZE - 1) / TILE_SIZE, TILE_SIZE>>>(in, out, width, mask_width);
}

void convolution_2d(const float* in, const float* mask, float* out, int height, int width, int mask_width) {
  cudaMemcpyToSymbol(M_c, mask, mask_width * mask_width * sizeof(float), 0, cudaMemcpyDeviceToDevice);
  const dim3 block(TILE_2D, TILE_2D);
  const dim3 grid((width + TILE_2D - 1) / TILE_2D, (height + TILE_2D - 1) / TILE_2D);
  conv2d_const<<<grid, block>>>(in, out, height, width, mask_width);
}
