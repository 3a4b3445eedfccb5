// leftover_allocations.hpp on a GPU: the allocation entry points are wrapped at link time
// (copy_entry_points.hpp; the host-visible ones in transfer_hooks_cuda.cpp report here too), and
// what the submission's calls allocate (while transfer_log.hpp records) is kept until freed.
#include <cuda_runtime.h>

#include <map>
#include <mutex>

#include "harness/leftover_allocations.hpp"
#include "harness/transfer_log.hpp"

namespace gpulab::harness {
namespace {
std::mutex allocations_mutex;
std::map<void*, AllocationKind>& live() {
  static auto* m = new std::map<void*, AllocationKind>();  // used by wrappers until exit
  return *m;
}
}  // namespace

void note_submission_allocation(void* p, AllocationKind kind) {
  if (!p || !recording_transfers()) return;
  std::lock_guard<std::mutex> lock(allocations_mutex);
  live()[p] = kind;
}

void note_submission_free(void* p) {
  std::lock_guard<std::mutex> lock(allocations_mutex);
  live().erase(p);
}

void watch_allocations() {
  std::lock_guard<std::mutex> lock(allocations_mutex);
  live().clear();
}

void free_leftover_allocations() {
  std::map<void*, AllocationKind> left;
  {
    std::lock_guard<std::mutex> lock(allocations_mutex);
    left.swap(live());
  }
  if (left.empty()) return;
  cudaDeviceSynchronize();
  for (const auto& [p, kind] : left) {
    switch (kind) {
      case AllocationKind::device: cudaFree(p); break;
      case AllocationKind::page_locked: cudaFreeHost(p); break;
      case AllocationKind::registered: cudaHostUnregister(p); break;
    }
  }
  cudaGetLastError();  // a pointer the program freed some other way is not an error of the next case
}
}  // namespace gpulab::harness

namespace {
using gpulab::harness::AllocationKind;
void noted(cudaError_t r, void** p) {
  if (r == cudaSuccess && p) gpulab::harness::note_submission_allocation(*p, AllocationKind::device);
}
}  // namespace

extern "C" {
cudaError_t __real_cudaMalloc(void** p, size_t n);
cudaError_t __wrap_cudaMalloc(void** p, size_t n) {
  const cudaError_t r = __real_cudaMalloc(p, n);
  noted(r, p);
  return r;
}
cudaError_t __real_cudaMallocPitch(void** p, size_t* pitch, size_t w, size_t h);
cudaError_t __wrap_cudaMallocPitch(void** p, size_t* pitch, size_t w, size_t h) {
  const cudaError_t r = __real_cudaMallocPitch(p, pitch, w, h);
  noted(r, p);
  return r;
}
cudaError_t __real_cudaMalloc3D(cudaPitchedPtr* p, cudaExtent e);
cudaError_t __wrap_cudaMalloc3D(cudaPitchedPtr* p, cudaExtent e) {
  const cudaError_t r = __real_cudaMalloc3D(p, e);
  if (r == cudaSuccess && p) gpulab::harness::note_submission_allocation(p->ptr, AllocationKind::device);
  return r;
}
}
