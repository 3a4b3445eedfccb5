// Kernels known by address. CUDA lets a program hand a kernel over as a bare
// `void*` with its arguments in a `void**` array (cudaLaunchKernel,
// cudaLaunchCooperativeKernel, a graph's kernel node). The emulator calls
// kernels as C++ functions and needs their parameter types to unpack that
// array, so the rewriter registers every non-template kernel defined in a
// student's file right after its definition:
//   __global__ void k(float* a, int n) { ... } static const ::gpulab::emu::kernel_registration
//       gpulab_kernel_registration_k_12_1(static_cast<void (*)(float* a, int n)>(&k), "k");
// and a launch by address looks the address up here.
#pragma once
#include <cstddef>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

#include "gpulab/emu/kernel_launch.hpp"

namespace gpulab::emu {

// Copies each argument from where args[i] points, as a GPU does at the launch, and keeps
// the copies with the launch: the host may change args[] (and what it points to) at once.
template <class... Params, size_t... I>
KernelBody bind_kernel_arguments(void (*kernel)(Params...), void** args, std::index_sequence<I...>) {
  struct Closure {
    void (*kernel)(Params...);
    std::tuple<std::decay_t<Params>...> values;
    void run() const { kernel(std::get<I>(values)...); }
    const std::tuple<std::decay_t<Params>...>& arguments() const { return values; }
  };
  return make_kernel_body(std::make_shared<const Closure>(
      Closure{kernel, std::tuple<std::decay_t<Params>...>(*static_cast<std::decay_t<Params>*>(args[I])...)}));
}
template <class... Params> KernelBody bind_kernel_arguments(void (*kernel)(Params...), void** args) {
  return bind_kernel_arguments(kernel, args, std::index_sequence_for<Params...>{});
}

// Binds a registered kernel (known only by address) to an argument array.
using KernelBinder = KernelBody (*)(const void* kernel, void** args);

struct RegisteredKernel {
  const char* name;
  KernelBinder bind;
};

void register_kernel(const void* address, const char* name, KernelBinder bind);
// The kernel at `address`, or null when no registered kernel is there.
const RegisteredKernel* find_registered_kernel(const void* address);

struct kernel_registration {
  template <class... Params> kernel_registration(void (*kernel)(Params...), const char* name) {
    register_kernel(reinterpret_cast<const void*>(kernel), name, [](const void* k, void** args) {
      return bind_kernel_arguments(reinterpret_cast<void (*)(Params...)>(const_cast<void*>(k)), args);
    });
  }
};

// A kernel whose address the program takes as an untyped pointer (`(void*)k<float>`): the rewriter
// wraps the kernel in this call, which registers it (a template's instantiation is known only
// here, where its type is) and returns it unchanged.
template <class... Params> auto kernel_address(void (*kernel)(Params...), const char* name) {
  const kernel_registration registration(kernel, name);
  (void)registration;
  return kernel;
}

}  // namespace gpulab::emu
