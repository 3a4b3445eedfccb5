// A kernel given host memory a GPU cannot reach (malloc, the host stack, a host variable): on an
// H200 the kernel fails with cudaErrorIllegalAddress at the next synchronisation. The emulator
// refuses the launch with that error and says which argument and what to do.
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void sum(const int* in, int n, int* out) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += in[i];
  *out = s;
}

int host_static[64];

int main(int argc, char** argv) {
  const char* what = argc > 1 ? argv[1] : "malloc";
  int on_stack[64];
  int* heap = static_cast<int*>(std::malloc(64 * sizeof(int)));
  for (int i = 0; i < 64; ++i) heap[i] = on_stack[i] = host_static[i] = 1;
  const int* in = std::strcmp(what, "stack") == 0 ? on_stack : std::strcmp(what, "static") == 0 ? host_static : heap;
  int* out = nullptr;
  cudaMalloc(&out, sizeof(int));
  sum<<<1, 1>>>(in, 64, out);
  std::printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  std::free(heap);
  return 0;
}
