// CUDA programs may hand a kernel over by address, `(void*)kernel`, with its arguments in a
// `void**` array (cudaLaunchKernel, cudaLaunchCooperativeKernel, a graph's kernel node). To call it,
// the emulator needs the kernel's parameter types, so each non-template kernel defined at namespace
// scope gets a registration right after its closing brace, on the same line:
//   __global__ void scale(float* x, int n = 4) { ... }
//   -> __global__ void scale(float* x, int n = 4) { ... } static const ::gpulab::emu::kernel_registration
//      gpulab_kernel_registration_scale_L3C1(static_cast<void (*)(float* x, int n)>(&scale), "scale");
// (the cast picks this kernel among overloads). Template kernels, declarations without a body,
// kernels in class bodies, friends and #define bodies get none.
#pragma once

#include "rewriter/code_tokens.hpp"
#include "rewriter/scope_tracker.hpp"
#include "rewriter/source_edit.hpp"

#include <vector>

namespace gpulab::rewriter {

// scope: scope_map(tokens). Appends one insertion per registered kernel.
void collect_kernel_registrations(const CodeTokens& tokens, const std::vector<TokenScope>& scope,
                                  std::vector<SourceEdit>& edits);

}  // namespace gpulab::rewriter
