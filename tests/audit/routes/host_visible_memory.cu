// Audit route: memory that kernels write and the host reads without a copy, which the labs' graded
// functions do not use (lab.json's host_work.host_visible_memory): managed memory, a __managed__
// variable, page-locked and mapped host memory, registered host memory and its device pointer; on a
// GPU also a conditional graph node, whose body runs a number of times the grader cannot follow.
#include <vector>

__managed__ int managed_total;

__global__ void add(int* total, const int* in, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(total, in[i]);
}

void reduce_sum_int(const int* in, int* out, int n) {
  int* managed = nullptr;
  cudaMallocManaged(&managed, sizeof(int));
  int* pinned = nullptr;
  cudaMallocHost(&pinned, sizeof(int));
  int* mapped = nullptr;
  cudaHostAlloc(reinterpret_cast<void**>(&mapped), sizeof(int), cudaHostAllocMapped);
  std::vector<int> registered(1);
  cudaHostRegister(registered.data(), sizeof(int), cudaHostRegisterMapped);
  int* through = nullptr;
  cudaHostGetDevicePointer(reinterpret_cast<void**>(&through), registered.data(), 0);
  add<<<(n + 255) / 256, 256>>>(managed, in, n);
  add<<<(n + 255) / 256, 256>>>(&managed_total, in, n);
#ifndef GPULAB_EMULATOR
  cudaGraph_t graph;
  cudaGraphCreate(&graph, 0);
  cudaGraphConditionalHandle handle;
  cudaGraphConditionalHandleCreate(&handle, graph, 0, 0);
  cudaGraphDestroy(graph);
#endif
  cudaDeviceSynchronize();
  cudaMemcpy(out, managed, sizeof(int), cudaMemcpyDefault);
  cudaHostUnregister(registered.data());
  cudaFreeHost(mapped);
  cudaFreeHost(pinned);
  cudaFree(managed);
}
