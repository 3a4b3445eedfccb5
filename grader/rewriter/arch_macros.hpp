// Macros whose value depends on `__CUDA_ARCH__`: defined (or undefined) inside a conditional group
// that the device and host passes read differently, or whose replacement names `__CUDA_ARCH__` or
// another such macro. The emulator compiles one program for both passes, so each such macro gets
// a second name for the device side: the device pass's definition is written as
// `#define gpulab_device_NAME ...`, and device code reads NAME through that name (arch_views.hpp).
// A program's headers and sources are read together (the toolchain passes the macros of the other
// files in `known`), so a macro defined in a header is known in the .cu that includes it.
#pragma once

#include <set>
#include <string>
#include <string_view>

namespace gpulab::rewriter {

// The device side's name of macro `name`.
std::string device_macro_name(std::string_view name);

// `known` and the macros of `source` that depend on `__CUDA_ARCH__` (`arch`: its value on the
// device side, 900 for sm_90).
std::set<std::string> arch_dependent_macros(std::string_view source, const std::set<std::string>& known,
                                            int arch = 900);

}  // namespace gpulab::rewriter
