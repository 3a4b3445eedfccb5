// Course progression step, timed by `gpulab bench convolution --variants` (it must score
// full marks): tiled convolution with halo cells in
// shared memory, mask read from global memory. 1-D: blocks of TILE_SIZE
// threads, each loads its inner cell, the last n threads the left halo, the
// first n the right halo (ghost cells 0). 2-D: blocks as large as the input
// tile (O_TILE_WIDTH + mask_width - 1 squared), each thread loads one cell,
// only the O_TILE_WIDTH^2 first compute.
#include <cuda_runtime.h>

#define MAX_MASK_WIDTH 15
#define TILE_SIZE 128
#define O_TILE_WIDTH 12

__global__ void conv1d_tiled(const float* in, const float* mask, float* out, int width, int mask_width) {
  __shared__ float tile[TILE_SIZE + MAX_MASK_WIDTH - 1];
  const int n = mask_width / 2;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;

  const int left = (blockIdx.x - 1) * blockDim.x + threadIdx.x;
  if (threadIdx.x >= blockDim.x - n) tile[threadIdx.x - (blockDim.x - n)] = left < 0 ? 0.0f : in[left];
  tile[n + threadIdx.x] = i < width ? in[i] : 0.0f;
  const int right = (blockIdx.x + 1) * blockDim.x + threadIdx.x;
  if (threadIdx.x < n) tile[n + blockDim.x + threadIdx.x] = right >= width ? 0.0f : in[right];
  __syncthreads();

  if (i < width) {
    float value = 0.0f;
    for (int j = 0; j < mask_width; ++j) value += tile[threadIdx.x + j] * mask[j];
    out[i] = value;
  }
}

__global__ void conv2d_tiled(const float* in, const float* mask, float* out, int height, int width, int mask_width) {
  __shared__ float tile[O_TILE_WIDTH + MAX_MASK_WIDTH - 1][O_TILE_WIDTH + MAX_MASK_WIDTH - 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row_o = blockIdx.y * O_TILE_WIDTH + ty;
  const int col_o = blockIdx.x * O_TILE_WIDTH + tx;
  const int row_i = row_o - mask_width / 2;
  const int col_i = col_o - mask_width / 2;

  if (row_i >= 0 && row_i < height && col_i >= 0 && col_i < width) tile[ty][tx] = in[row_i * width + col_i];
  else tile[ty][tx] = 0.0f;
  __syncthreads();

  if (ty < O_TILE_WIDTH && tx < O_TILE_WIDTH) {
    float value = 0.0f;
    for (int i = 0; i < mask_width; ++i)
      for (int j = 0; j < mask_width; ++j) value += tile[ty + i][tx + j] * mask[i * mask_width + j];
    if (row_o < height && col_o < width) out[row_o * width + col_o] = value;
  }
}

void convolution_1d(const float* in, const float* mask, float* out, int width, int mask_width) {
  conv1d_tiled<<<(width + TILE_SIZE - 1) / TILE_SIZE, TILE_SIZE>>>(in, mask, out, width, mask_width);
}

void convolution_2d(const float* in, const float* mask, float* out, int height, int width, int mask_width) {
  const int block_width = O_TILE_WIDTH + mask_width - 1;
  const dim3 block(block_width, block_width);
  const dim3 grid((width + O_TILE_WIDTH - 1) / O_TILE_WIDTH, (height + O_TILE_WIDTH - 1) / O_TILE_WIDTH);
  conv2d_tiled<<<grid, block>>>(in, mask, out, height, width, mask_width);
}
