// A host pointer hidden where a launch's argument check cannot see it (in a structure): the
// checking build (--race-check) sees the kernel's access and reports it at the access.
#include <cstdio>
#include <cstdlib>

struct Input {
  const int* values;
  int n;
};

__global__ void sum(Input in, int* out) {
  int s = 0;
  for (int i = 0; i < in.n; ++i) s += in.values[i];
  *out = s;
}

int main() {
  int* heap = static_cast<int*>(std::malloc(16 * sizeof(int)));
  for (int i = 0; i < 16; ++i) heap[i] = 1;
  int* out = nullptr;
  cudaMalloc(&out, sizeof(int));
  sum<<<1, 1>>>(Input{heap, 16}, out);
  std::printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  std::free(heap);
  return 0;
}
