// What CUDA's cuda_runtime.h gives a host source (.cpp, .cc, .cxx, .c compiled by the host
// compiler, without __CUDACC__): the runtime API and its types, the vector types, the version
// macros and the execution-space qualifiers, and nothing of the device library (no threadIdx,
// atomics or math functions such as umin), so that a host file's own helpers keep their names.
#pragma once
#include <cstddef>
#include "gpulab/emu/qualifiers.hpp"
#include "gpulab/emu/cuda_version.hpp"
#include "gpulab/emu/vector_types.hpp"
#include "gpulab/emu/runtime_types.hpp"
#include "gpulab/emu/runtime_api.hpp"

#ifndef cudaLaunchKernel
// A launch by address from host code: the kernel must be one the emulator knows (every kernel of
// the program's .cu files is registered; kernel_registry.hpp).
template <class Kernel>
inline cudaError_t gpulab_emu_host_launch(bool cooperative, const char* call, const char* file, int line,
                                          Kernel* kernel, dim3 grid, dim3 block, void** args, size_t shared_bytes = 0,
                                          cudaStream_t stream = nullptr) {
  return gpulab::emu::launch_by_address(cooperative, call, file, line, reinterpret_cast<const void*>(kernel), grid,
                                        block, args, shared_bytes, stream);
}
#define cudaLaunchCooperativeKernel(...) gpulab_emu_host_launch(true, #__VA_ARGS__, __FILE__, __LINE__, __VA_ARGS__)
#define cudaLaunchKernel(...) gpulab_emu_host_launch(false, #__VA_ARGS__, __FILE__, __LINE__, __VA_ARGS__)
#endif
