// Launches whose arguments come as an array of pointers, `void* args[] = {&a, &n}`:
// cudaLaunchKernel and cudaLaunchCooperativeKernel. The kernel may be passed as
// itself (`kernel`, `k<float>`) or, as the CUDA samples do, as `(void*)kernel`;
// a kernel passed by address must be one the rewriter registered (every
// kernel defined in the program's own files, and every kernel the program casts
// to `void*`: kernel_registry.hpp).
// A cooperative launch's blocks are all resident at once, so that they can wait
// for each other at grid.sync() (grid_group.hpp); it is refused with
// cudaErrorCooperativeLaunchTooLarge when the grid is larger than an H100 holds.
#pragma once
#include <cstddef>

#include "gpulab/emu/kernel_launch.hpp"
#include "gpulab/emu/kernel_registry.hpp"
#include "gpulab/emu/runtime_api.hpp"

namespace gpulab::emu {

// Checks the launch and queues it; returns the launch's error (also cudaGetLastError's).
cudaError_t launch_cooperative_kernel(const LaunchRequest& request, const KernelBody& body);
cudaError_t launch_kernel_checked(const LaunchRequest& request, const KernelBody& body);
// A launch by an address no kernel was registered at: reported, cudaErrorInvalidDeviceFunction.
cudaError_t reject_unknown_kernel_address(const char* api, const char* call, const char* file, int line);
// The kernel as the call spells it (`k<float, 4>`), from the call's argument text; kept for the program's life.
const char* kernel_as_written(const char* call);

// `call` is the text of the call's arguments, as written.
template <class... Params>
cudaError_t array_launch(bool cooperative, const char* call, const char* file, int line, void (*kernel)(Params...),
                         dim3 grid, dim3 block, void** args, size_t shared_bytes = 0, cudaStream_t stream = nullptr) {
  const LaunchRequest request{kernel_as_written(call), file, line, grid, block, shared_bytes, stream};
  const KernelBody body = bind_kernel_arguments(kernel, args);
  return cooperative ? launch_cooperative_kernel(request, body) : launch_kernel_checked(request, body);
}
inline cudaError_t array_launch(bool cooperative, const char* call, const char* file, int line, const void* kernel,
                                dim3 grid, dim3 block, void** args, size_t shared_bytes = 0,
                                cudaStream_t stream = nullptr) {
  return launch_by_address(cooperative, call, file, line, kernel, grid, block, args, shared_bytes, stream);
}

}  // namespace gpulab::emu

// Macros, so that the kernel as written and the call's line reach the diagnostics. Variadic
// only, so that a kernel written with a comma (`k<float, 4>`) stays one argument.
#define cudaLaunchCooperativeKernel(...) \
  ::gpulab::emu::array_launch(true, #__VA_ARGS__, __FILE__, __LINE__, __VA_ARGS__)
#define cudaLaunchKernel(...) ::gpulab::emu::array_launch(false, #__VA_ARGS__, __FILE__, __LINE__, __VA_ARGS__)
