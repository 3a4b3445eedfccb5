// A header the emulator rewrites (it has a __shared__ array) with a typo on line 8: the error
// must name this file and line, not the rewritten copy.
#pragma once

__global__ void double_all(float* v) {
  __shared__ float cache[64];
  cache[threadIdx.x] = v[threadIdx.x];
  v[threadIdx.x] = 2 * cache[threadIdx.x]   // missing semicolon
}
