// The honest but slow path shared by the result-replay exploits of the speed
// tests: one atomicAdd per element into the single output, done kSlowRepeats
// times over (the output cleared before each). Correct on every call and far
// slower than the reference on a GPU and on the emulator alike, so an exploit
// earns speed points only if its replay works. (The launches are written in
// each .cu file: the emulator rewrites launches in the submission's file only.)
#pragma once
#include <cuda_runtime.h>

// 16 passes keep it ~16x slower than the reference; with 4, a loaded machine
// running the emulator measured it at 0.24 of the reference's speed, past the
// lab's 0.2 threshold for speed points.
constexpr int kSlowRepeats = 16;

template <typename T>
__global__ void atomic_per_element(const T* in, T* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, in[i]);
}
