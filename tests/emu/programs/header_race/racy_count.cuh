// A racy kernel and its launch in a header: every thread adds to one __shared__ counter with a
// plain read-modify-write (line 9), so the race check reports the race on this file's lines.
#pragma once

__global__ void count_racy(int* out) {
  __shared__ int counter;
  if (threadIdx.x == 0) counter = 0;
  __syncthreads();
  counter += 1;
  __syncthreads();
  if (threadIdx.x == 0) *out = counter;
}

inline void launch_count(int* d_out) { count_racy<<<1, 64>>>(d_out); }
