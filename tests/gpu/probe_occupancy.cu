// Prints what the occupancy calculator answers for small kernels (few
// registers, so threads, blocks and shared memory per SM decide), in the way
// samples choose a launch configuration with it, and checks that the chosen
// configuration computes the right result. Run on a GPU, its output is
// recorded in expected/; the emulator must print the same lines.
#include <cstdio>

__global__ void square(const int* in, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}

__global__ void staged(const int* in, int* out, int n) {
  extern __shared__ int stage[];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  stage[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  if (i < n) out[i] = stage[threadIdx.x] + 1;
}

static void blocks_per_sm(const char* what, const void* kernel, int block, size_t smem) {
  int blocks = -1;
  const cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, block, smem);
  std::printf("%-44s %2d blocks/SM (%s)\n", what, blocks, cudaGetErrorName(e));
}

int main() {
  blocks_per_sm("square, 32 threads", reinterpret_cast<const void*>(square), 32, 0);
  blocks_per_sm("square, 256 threads", reinterpret_cast<const void*>(square), 256, 0);
  blocks_per_sm("square, 1024 threads", reinterpret_cast<const void*>(square), 1024, 0);
  blocks_per_sm("staged, 128 threads, 32 KiB dynamic", reinterpret_cast<const void*>(staged), 128, 32 * 1024);
  blocks_per_sm("staged, 128 threads, 100 KiB dynamic", reinterpret_cast<const void*>(staged), 128, 100 * 1024);

  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  int min_grid = 0, block = 0;
  cudaError_t e = cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, square, 0, 0);
  std::printf("%-44s block %d, min grid %d x SMs (%s)\n", "square: max potential block size", block,
              sms ? min_grid / sms : -1, cudaGetErrorName(e));
  e = cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, square, 0, 96);
  std::printf("%-44s block %d, min grid %d x SMs (%s)\n", "square, block limit 96", block,
              sms ? min_grid / sms : -1, cudaGetErrorName(e));

  const int n = 100000;
  int *in = nullptr, *out = nullptr;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&out, n * sizeof(int));
  for (int i = 0; i < n; ++i) in[i] = i % 1000;
  cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, square, 0, 0);
  square<<<(n + block - 1) / block, block>>>(in, out, n);
  cudaDeviceSynchronize();
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += out[i] != (i % 1000) * (i % 1000);
  std::printf("%-44s %d wrong\n", "square with the suggested block", wrong);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
