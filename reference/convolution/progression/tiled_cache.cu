// Course progression step, timed by `gpulab bench convolution --variants` (it must score
// full marks): the "cache" tiled convolution -- each
// block loads only its own tile (no halo) into shared memory; a thread reads
// the cells inside the tile from shared memory and the halo cells straight
// from global memory, trusting the L1/L2 caches (neighbouring blocks have just
// loaded them). Ghost cells are skipped (= 0).
#include <cuda_runtime.h>

#define TILE_SIZE 256
#define TILE_2D 16

__global__ void conv1d_cache(const float* in, const float* mask, float* out, int width, int mask_width) {
  __shared__ float tile[TILE_SIZE];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = i < width ? in[i] : 0.0f;
  __syncthreads();

  const int this_tile = blockIdx.x * blockDim.x;
  const int next_tile = (blockIdx.x + 1) * blockDim.x;
  const int start = i - mask_width / 2;
  float value = 0.0f;
  for (int j = 0; j < mask_width; ++j) {
    const int k = start + j;
    if (k >= 0 && k < width) {
      if (k >= this_tile && k < next_tile) value += tile[threadIdx.x + j - mask_width / 2] * mask[j];
      else value += in[k] * mask[j];
    }
  }
  if (i < width) out[i] = value;
}

__global__ void conv2d_cache(const float* in, const float* mask, float* out, int height, int width, int mask_width) {
  __shared__ float tile[TILE_2D][TILE_2D];
  const int row0 = blockIdx.y * TILE_2D, col0 = blockIdx.x * TILE_2D;
  const int row = row0 + threadIdx.y, col = col0 + threadIdx.x;
  tile[threadIdx.y][threadIdx.x] = (row < height && col < width) ? in[row * width + col] : 0.0f;
  __syncthreads();

  if (row < height && col < width) {
    const int n = mask_width / 2;
    float value = 0.0f;
    for (int i = 0; i < mask_width; ++i) {
      for (int j = 0; j < mask_width; ++j) {
        const int r = row - n + i, c = col - n + j;
        if (r < 0 || r >= height || c < 0 || c >= width) continue;  // ghost cell
        const float x = (r >= row0 && r < row0 + TILE_2D && c >= col0 && c < col0 + TILE_2D)
                            ? tile[r - row0][c - col0]
                            : in[r * width + c];
        value += x * mask[i * mask_width + j];
      }
    }
    out[row * width + col] = value;
  }
}

void convolution_1d(const float* in, const float* mask, float* out, int width, int mask_width) {
  conv1d_cache<<<(width + TILE_SIZE - 1) / TILE_SIZE, TILE_SIZE>>>(in, mask, out, width, mask_width);
}

void convolution_2d(const float* in, const float* mask, float* out, int height, int width, int mask_width) {
  const dim3 block(TILE_2D, TILE_2D);
  const dim3 grid((width + TILE_2D - 1) / TILE_2D, (height + TILE_2D - 1) / TILE_2D);
  conv2d_cache<<<grid, block>>>(in, mask, out, height, width, mask_width);
}
