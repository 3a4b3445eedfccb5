// Kernels whose address a program takes as an untyped pointer: `(void*)k`, `(void *)&k<float, 4>`,
// `reinterpret_cast<const void*>(ns::k<T>)`, as cuda-samples pass kernels to
// cudaLaunchKernel/cudaLaunchCooperativeKernel and graph kernel nodes. A kernel so passed reaches
// the emulator as a bare address, and the emulator needs its parameter types to unpack the
// argument array; a template kernel's instantiation cannot be registered where it is defined. So
// the kernel expression is wrapped, `(void*)::gpulab::emu::kernel_address(k<float, 4>, "k<float, 4>")`,
// which registers the instantiation (its type is known there) and returns the same pointer.
#pragma once

#include "rewriter/code_tokens.hpp"
#include "rewriter/source_edit.hpp"

#include <set>
#include <string>
#include <vector>

namespace gpulab::rewriter {

// The names of the kernels (`__global__` functions, templates included) a source declares.
std::set<std::string> kernel_names_of(const CodeTokens& t);

void collect_kernel_addresses(const CodeTokens& t, const std::set<std::string>& kernels,
                              std::vector<SourceEdit>& edits);

}  // namespace gpulab::rewriter
