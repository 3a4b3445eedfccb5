// Helpers of regions_main.cu in a header of their own: a device function that synchronises the
// block (a kernel that calls it keeps one fiber per thread), and the rounds of a loop.
#pragma once

#define ROUNDS 4

__device__ inline void shift_left(int* s, int t) {
  const int v = s[(t + 1) % blockDim.x];
  __syncthreads();
  s[t] = v;
  __syncthreads();
}
