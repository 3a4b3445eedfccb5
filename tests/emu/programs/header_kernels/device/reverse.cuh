// Kernels, __shared__ arrays and <<<>>> launches in a header, as course code often has them:
// the emulator build compiles a rewritten copy of this file.
#pragma once
#include "tile.h"

// Reverses each tile of kTile values through a static __shared__ array.
__global__ void reverse_tiles(int* data) {
  __shared__ int tile[kTile];
  const int base = blockIdx.x * kTile;
  tile[threadIdx.x] = data[base + threadIdx.x];
  __syncthreads();
  data[base + threadIdx.x] = tile[kTile - 1 - threadIdx.x];
}

// Adds each tile's sum to its first value, through dynamic shared memory.
__global__ void add_tile_sums(int* data) {
  extern __shared__ int sums[];
  sums[threadIdx.x] = data[blockIdx.x * kTile + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int i = 0; i < kTile; ++i) s += sums[i];
    data[blockIdx.x * kTile] = s;
  }
}

inline void reverse_then_sum(int* d_data, int tiles) {
  reverse_tiles<<<tiles, kTile>>>(d_data);
  add_tile_sums<<<tiles, kTile, kTile * sizeof(int)>>>(d_data);
}
