// Shared by every route of tests/own_kernel/routes: a kernel that copies (so that "a kernel was
// launched" holds and the data passes through other device memory first), and the way back to
// device memory, which volume accounting never needs to see (the host must have had the data first).
#include <cstddef>
#include <cstring>
#include <vector>

template <typename T>
__global__ void route_copy_kernel(T* dst, const T* src, size_t n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    dst[i] = src[i];
}

template <typename T>
void route_copy_on_device(T* dst, const T* src, size_t n) {
  route_copy_kernel<<<256, 256>>>(dst, src, n);
}

// The host's answer into the output: a host-to-device copy into scratch memory, then a kernel copy.
template <typename T>
void route_to_device(T* out, const T* host, size_t n) {
  T* scratch = nullptr;
  cudaMalloc(&scratch, n * sizeof(T));
  cudaMemcpy(scratch, host, n * sizeof(T), cudaMemcpyHostToDevice);
  route_copy_on_device(out, scratch, n);
  cudaDeviceSynchronize();
  cudaFree(scratch);
}
