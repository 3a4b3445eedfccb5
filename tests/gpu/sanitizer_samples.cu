// One faulty kernel per compute-sanitizer tool, run on a GPU by
// scripts/device-check.sh to record the sanitizer's real output
// (tests/grader/data/sanitizer/*.txt), which the parser's unit tests read.
#include <cstdio>
#include <cstring>

__global__ void read_past_end(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i % n] = in[i];  // no bounds check on the read
}

__global__ void shared_race(int* out) {
  __shared__ int cell[32];
  cell[threadIdx.x % 32] = threadIdx.x;  // many threads, one cell, no barrier
  out[threadIdx.x] = cell[(threadIdx.x + 1) % 32];
}

__global__ void divergent_barrier(int* out) {
  if (threadIdx.x < 16) __syncthreads();  // half the warp waits at a barrier
  out[threadIdx.x] = threadIdx.x;
}

__global__ void read_uninitialised(const int* in, int* out) { out[threadIdx.x] = in[threadIdx.x] + 1; }

int main(int argc, char** argv) {
  const char* which = argc > 1 ? argv[1] : "";
  float *fin, *fout;
  int *iin, *iout;
  cudaMalloc(&fin, 1000 * sizeof(float));
  cudaMalloc(&fout, 1000 * sizeof(float));
  cudaMalloc(&iin, 256 * sizeof(int));
  cudaMalloc(&iout, 256 * sizeof(int));
  cudaMemset(fin, 0, 1000 * sizeof(float));
  if (!std::strcmp(which, "memcheck")) read_past_end<<<4, 256>>>(fin, fout, 1000);
  if (!std::strcmp(which, "racecheck")) shared_race<<<1, 128>>>(iout);
  if (!std::strcmp(which, "synccheck")) divergent_barrier<<<1, 32>>>(iout);
  if (!std::strcmp(which, "initcheck")) read_uninitialised<<<1, 64>>>(iin, iout);
  std::printf("%s: %s\n", which, cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
