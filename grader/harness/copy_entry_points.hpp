// The CUDA runtime entry points a graded program is linked to reach through
// the harness first on a GPU (-Wl,--wrap=<name>, added by
// grade/harness_build.cpp): launches (launch_counter_cuda.cpp), copies and
// allocations (transfer_hooks_cuda.cpp), the graphs whose memcpy nodes move
// bytes when they run (graph_copies_cuda.cpp), and the registration of device
// variables (device_variables_cuda.cpp). One list, read by the
// build; each name has its __wrap_ definition in one of those files
// (tests/grader/test_copy_entry_points.cpp checks both ways).
#pragma once
#include <array>
#include <string_view>

namespace gpulab::harness {

inline constexpr std::array<std::string_view, 10> kLaunchEntryPoints{"__cudaLaunchKernel",
                                                                     "__cudaLaunchKernel_ptsz",
                                                                     "cudaLaunchKernel",
                                                                     "cudaLaunchKernel_ptsz",
                                                                     "cudaLaunchKernelExC",
                                                                     "cudaLaunchKernelExC_ptsz",
                                                                     "cudaLaunchCooperativeKernel",
                                                                     "cudaLaunchCooperativeKernel_ptsz",
                                                                     "cudaGraphLaunch",
                                                                     "cudaGraphLaunch_ptsz"};

inline constexpr std::array<std::string_view, 34> kCopyEntryPoints{"cudaMemcpy",
                                                                   "cudaMemcpy_ptds",
                                                                   "cudaMemcpyAsync",
                                                                   "cudaMemcpyAsync_ptsz",
                                                                   "cudaMemcpy2D",
                                                                   "cudaMemcpy2D_ptds",
                                                                   "cudaMemcpy2DAsync",
                                                                   "cudaMemcpy2DAsync_ptsz",
                                                                   "cudaMemcpy3D",
                                                                   "cudaMemcpy3D_ptds",
                                                                   "cudaMemcpy3DAsync",
                                                                   "cudaMemcpy3DAsync_ptsz",
                                                                   "cudaMemcpy3DPeer",
                                                                   "cudaMemcpy3DPeer_ptds",
                                                                   "cudaMemcpy3DPeerAsync",
                                                                   "cudaMemcpy3DPeerAsync_ptsz",
                                                                   "cudaMemcpyPeer",
                                                                   "cudaMemcpyPeerAsync",
                                                                   "cudaMemcpyFromSymbol",
                                                                   "cudaMemcpyFromSymbol_ptds",
                                                                   "cudaMemcpyFromSymbolAsync",
                                                                   "cudaMemcpyFromSymbolAsync_ptsz",
                                                                   "cudaMemcpyFromArray",
                                                                   "cudaMemcpyFromArray_ptds",
                                                                   "cudaMemcpyFromArrayAsync",
                                                                   "cudaMemcpyFromArrayAsync_ptsz",
                                                                   "cudaMemcpy2DFromArray",
                                                                   "cudaMemcpy2DFromArray_ptds",
                                                                   "cudaMemcpy2DFromArrayAsync",
                                                                   "cudaMemcpy2DFromArrayAsync_ptsz",
                                                                   "cudaMemcpyBatchAsync",
                                                                   "cudaMemcpyBatchAsync_ptsz",
                                                                   "cudaMemcpy3DBatchAsync",
                                                                   "cudaMemcpy3DBatchAsync_ptsz"};

inline constexpr std::array<std::string_view, 16> kAllocationEntryPoints{"cudaMalloc",
                                                                         "cudaMallocPitch",
                                                                         "cudaMalloc3D",
                                                                         "cudaMallocManaged",
                                                                         "cudaMallocHost",
                                                                         "cudaHostAlloc",
                                                                         "cudaHostRegister",
                                                                         "cudaMallocAsync",
                                                                         "cudaMallocAsync_ptsz",
                                                                         "cudaMallocFromPoolAsync",
                                                                         "cudaMallocFromPoolAsync_ptsz",
                                                                         "cudaFree",
                                                                         "cudaFreeHost",
                                                                         "cudaHostUnregister",
                                                                         "cudaFreeAsync",
                                                                         "cudaFreeAsync_ptsz"};

// The registration of each __device__ and __constant__ variable (device_variables_cuda.cpp).
inline constexpr std::array<std::string_view, 1> kRegistrationEntryPoints{"__cudaRegisterVar"};

inline constexpr std::array<std::string_view, 12> kGraphEntryPoints{"cudaGraphInstantiate",
                                                                    "cudaGraphInstantiateWithFlags",
                                                                    "cudaGraphInstantiateWithParams",
                                                                    "cudaGraphInstantiateWithParams_ptsz",
                                                                    "cudaGraphExecUpdate",
                                                                    "cudaGraphExecMemcpyNodeSetParams",
                                                                    "cudaGraphExecMemcpyNodeSetParams1D",
                                                                    "cudaGraphExecMemcpyNodeSetParamsFromSymbol",
                                                                    "cudaGraphExecMemcpyNodeSetParamsToSymbol",
                                                                    "cudaGraphExecChildGraphNodeSetParams",
                                                                    "cudaGraphExecNodeSetParams",
                                                                    "cudaGraphExecDestroy"};

}  // namespace gpulab::harness
