// cudaLaunchCooperativeKernel: a launch whose blocks are all resident at once,
// so that they can wait for each other at grid.sync() (grid_group.hpp). The
// launch is refused with cudaErrorCooperativeLaunchTooLarge when the grid is
// larger than an H100 holds at once. The kernel must be passed as itself
// (`kernel`, valid CUDA too), not as `(void*)kernel`: the emulator calls it,
// and needs its parameter types to unpack `args`.
#pragma once
#include <cstddef>
#include <type_traits>
#include <utility>

#include "gpulab/emu/kernel_launch.hpp"

namespace gpulab::emu {

// Checks a cooperative launch and queues it; returns the launch's error (also cudaGetLastError's).
cudaError_t launch_cooperative_kernel(const LaunchRequest& request, const KernelBody& body);
cudaError_t reject_untyped_cooperative_kernel(const char* kernel_name, const char* file, int line);

template <class... Params, size_t... I>
cudaError_t launch_cooperative(const char* name, const char* file, int line, void (*kernel)(Params...), dim3 grid,
                               dim3 block, void** args, size_t shared_bytes, cudaStream_t stream,
                               std::index_sequence<I...>) {
  // As a GPU does at the launch: each argument is copied from where args[i] points.
  struct Closure {
    void (*kernel)(Params...);
    std::tuple<std::decay_t<Params>...> values;
  };
  // Kept with the launch, which is queued: the host may change args[] before the kernel runs.
  auto closure = std::make_shared<const Closure>(
      Closure{kernel, std::tuple<std::decay_t<Params>...>(*static_cast<std::decay_t<Params>*>(args[I])...)});
  const KernelBody body{[](const void* p) {
                          const auto& c = *static_cast<const Closure*>(p);
                          c.kernel(std::get<I>(c.values)...);
                        },
                        closure.get(), closure};
  return launch_cooperative_kernel(LaunchRequest{name, file, line, grid, block, shared_bytes, stream}, body);
}

template <class... Params>
cudaError_t cooperative_launch(const char* name, const char* file, int line, void (*kernel)(Params...), dim3 grid,
                               dim3 block, void** args, size_t shared_bytes = 0, cudaStream_t stream = nullptr) {
  return launch_cooperative(name, file, line, kernel, grid, block, args, shared_bytes, stream,
                            std::index_sequence_for<Params...>{});
}
inline cudaError_t cooperative_launch(const char* name, const char* file, int line, const void*, dim3, dim3, void**,
                                      size_t = 0, cudaStream_t = nullptr) {
  return reject_untyped_cooperative_kernel(name, file, line);
}

}  // namespace gpulab::emu

// A macro, so that the kernel's name as written and the call's line reach the diagnostics.
#define cudaLaunchCooperativeKernel(kernel, ...) \
  ::gpulab::emu::cooperative_launch(#kernel, __FILE__, __LINE__, kernel, __VA_ARGS__)
