// A moving-window sum over 2*RADIUS+1 elements, computed from a shared-memory
// tile with halo; the kernel and its launch live in this header, as they do in
// many course exercises.
#pragma once
#ifndef RADIUS
#error "compile with -D RADIUS=<window radius>"
#endif

constexpr int kBlock = 128;

__global__ void moving_sum_kernel(const float* in, float* out, int n) {
  __shared__ float tile[kBlock + 2 * RADIUS];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int local = threadIdx.x + RADIUS;
  tile[local] = i < n ? in[i] : 0.0f;
  if (threadIdx.x < RADIUS) {
    const int left = i - RADIUS;
    const int right = i + kBlock;
    tile[threadIdx.x] = left >= 0 && left < n ? in[left] : 0.0f;
    tile[local + kBlock] = right < n ? in[right] : 0.0f;
  }
  __syncthreads();
  if (i < n) {
    float sum = 0.0f;
    for (int k = -RADIUS; k <= RADIUS; ++k) sum += tile[local + k];
    out[i] = sum;
  }
}

inline cudaError_t moving_sum(const float* in, float* out, int n) {
  moving_sum_kernel<<<(n + kBlock - 1) / kBlock, kBlock>>>(in, out, n);
  const cudaError_t launch = cudaGetLastError();
  if (launch != cudaSuccess) return launch;
  return cudaDeviceSynchronize();
}
