// Prints what libcu++'s block-scope barrier and pipeline give a kernel that
// stages tiles of global memory into shared memory with cuda::memcpy_async,
// as the samples on asynchronous copies do: double buffering with a pipeline,
// one barrier completing a copy, arrive/wait phases and arrive_and_drop. Run
// on a GPU, its output is recorded in expected/; the emulator must print the same.
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>

#include <cstdio>

namespace cg = cooperative_groups;
constexpr int kTile = 128;

// Sums tiles through two shared-memory stages: copy tile k+1 while adding tile k.
__global__ void pipelined_sum(const int* in, int tiles, int* out) {
  __shared__ int stage[2][kTile];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int t = threadIdx.x;
  int sum = 0;
  pipe.producer_acquire();
  cuda::memcpy_async(&stage[0][t], &in[t], sizeof(int), pipe);
  pipe.producer_commit();
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles) {
      pipe.producer_acquire();
      cuda::memcpy_async(&stage[(k + 1) % 2][t], &in[(k + 1) * kTile + t], sizeof(int), pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();  // the oldest batch: tile k (tile k+1 may still be in flight)
    __syncthreads();
    sum += stage[k % 2][(t + 1) % kTile];  // read a neighbour's element: the barrier made it visible
    __syncthreads();
    pipe.consumer_release();
  }
  atomicAdd(out, sum);
}

// One barrier: the block copies a tile with memcpy_async and waits on the barrier for it.
__global__ void barrier_copy(const int* in, int* out, int* phases) {
  __shared__ int tile[kTile];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, tile, in, sizeof(int) * kTile, bar);
  bar.arrive_and_wait();
  out[threadIdx.x] = tile[kTile - 1 - threadIdx.x] * 2;

  // Phases: every thread arrives and waits three times; the last phase drops half the threads.
  int completed = 0;
  for (int phase = 0; phase < 3; ++phase) {
    auto token = bar.arrive();
    bar.wait(std::move(token));
    ++completed;
  }
  if (threadIdx.x % 2 == 0) {
    bar.arrive_and_drop();
  } else {
    bar.arrive_and_wait();
    bar.arrive_and_wait();  // now only the odd threads take part
    ++completed;
  }
  atomicAdd(phases, completed);
}

int main() {
  const int tiles = 6;
  int *in = nullptr, *out = nullptr, *sum = nullptr, *phases = nullptr;
  cudaMallocManaged(&in, tiles * kTile * sizeof(int));
  cudaMallocManaged(&out, kTile * sizeof(int));
  cudaMallocManaged(&sum, sizeof(int));
  cudaMallocManaged(&phases, sizeof(int));
  long long expected = 0;
  for (int i = 0; i < tiles * kTile; ++i) {
    in[i] = i % 97;
    expected += i % 97;
  }
  *sum = 0;
  pipelined_sum<<<1, kTile>>>(in, tiles, sum);
  const cudaError_t pipelined = cudaDeviceSynchronize();  // before reading *sum
  std::printf("pipelined sum: %s, %d (expected %lld)\n", cudaGetErrorName(pipelined), *sum, expected);
  *phases = 0;
  barrier_copy<<<1, kTile>>>(in, out, phases);
  std::printf("barrier copy: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  int wrong = 0;
  for (int t = 0; t < kTile; ++t) wrong += out[t] != in[kTile - 1 - t] * 2;
  std::printf("copied tile: %d wrong\nphases completed: %d\n", wrong, *phases);
  return 0;
}
