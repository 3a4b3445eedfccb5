// Counting kernel launches on a GPU. The program is linked with
// -Wl,--wrap=<entry> for each CUDA runtime launch entry point (the toolchain
// adds the flags when it links this file), so every launch the submission
// makes, `<<<...>>>` (which nvcc lowers to __cudaLaunchKernel) or an explicit
// cudaLaunchKernel / cudaLaunchKernelExC / cudaLaunchCooperativeKernel /
// cudaGraphLaunch, passes through here first (the names: copy_entry_points.hpp).
#include <cuda_runtime.h>

#include <atomic>

#include "harness/launch_counter.hpp"
#include "harness/transfer_hooks.hpp"

namespace {
std::atomic<long long> launches{0};
}

namespace gpulab::harness {
long long kernel_launches_so_far() { return launches.load(); }
}  // namespace gpulab::harness

extern "C" {
cudaError_t __real___cudaLaunchKernel(const void*, dim3, dim3, void**, size_t, cudaStream_t);
cudaError_t __real___cudaLaunchKernel_ptsz(const void*, dim3, dim3, void**, size_t, cudaStream_t);
cudaError_t __real_cudaLaunchKernel(const void*, dim3, dim3, void**, size_t, cudaStream_t);
cudaError_t __real_cudaLaunchKernel_ptsz(const void*, dim3, dim3, void**, size_t, cudaStream_t);
cudaError_t __real_cudaLaunchKernelExC(const cudaLaunchConfig_t*, const void*, void**);
cudaError_t __real_cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t*, const void*, void**);
cudaError_t __real_cudaLaunchCooperativeKernel(const void*, dim3, dim3, void**, size_t, cudaStream_t);
cudaError_t __real_cudaLaunchCooperativeKernel_ptsz(const void*, dim3, dim3, void**, size_t, cudaStream_t);
cudaError_t __real_cudaGraphLaunch(cudaGraphExec_t, cudaStream_t);
cudaError_t __real_cudaGraphLaunch_ptsz(cudaGraphExec_t, cudaStream_t);

#define GPULAB_COUNTED(name, params, args) \
  cudaError_t __wrap_##name params {       \
    launches.fetch_add(1);                 \
    return __real_##name args;             \
  }
GPULAB_COUNTED(__cudaLaunchKernel, (const void* f, dim3 g, dim3 b, void** a, size_t s, cudaStream_t st),
               (f, g, b, a, s, st))
GPULAB_COUNTED(__cudaLaunchKernel_ptsz, (const void* f, dim3 g, dim3 b, void** a, size_t s, cudaStream_t st),
               (f, g, b, a, s, st))
GPULAB_COUNTED(cudaLaunchKernel, (const void* f, dim3 g, dim3 b, void** a, size_t s, cudaStream_t st),
               (f, g, b, a, s, st))
GPULAB_COUNTED(cudaLaunchKernel_ptsz, (const void* f, dim3 g, dim3 b, void** a, size_t s, cudaStream_t st),
               (f, g, b, a, s, st))
GPULAB_COUNTED(cudaLaunchKernelExC, (const cudaLaunchConfig_t* c, const void* f, void** a), (c, f, a))
GPULAB_COUNTED(cudaLaunchKernelExC_ptsz, (const cudaLaunchConfig_t* c, const void* f, void** a), (c, f, a))
GPULAB_COUNTED(cudaLaunchCooperativeKernel, (const void* f, dim3 g, dim3 b, void** a, size_t s, cudaStream_t st),
               (f, g, b, a, s, st))
GPULAB_COUNTED(cudaLaunchCooperativeKernel_ptsz, (const void* f, dim3 g, dim3 b, void** a, size_t s, cudaStream_t st),
               (f, g, b, a, s, st))
#undef GPULAB_COUNTED

// A graph's launch also runs its memcpy nodes (graph_copies_cuda.cpp counts what they move).
#define GPULAB_GRAPH_LAUNCH(name)                                 \
  cudaError_t __wrap_##name(cudaGraphExec_t e, cudaStream_t st) { \
    launches.fetch_add(1);                                        \
    const cudaError_t r = __real_##name(e, st);                   \
    if (r == cudaSuccess) gpulab::harness::note_graph_launch(e);  \
    return r;                                                     \
  }
GPULAB_GRAPH_LAUNCH(cudaGraphLaunch)
GPULAB_GRAPH_LAUNCH(cudaGraphLaunch_ptsz)
#undef GPULAB_GRAPH_LAUNCH
}
