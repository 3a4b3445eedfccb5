// Inline assembly in CUDA code is PTX, which the host compiler would hand to the x86 assembler
// (an error about an unknown instruction in a temporary file). Each `asm(...)` statement in a
// function body or a #define body (also `asm volatile`, `__asm__ __volatile__`, `asm goto`)
// becomes a static_assert that fails with a gpulab message at the student's line:
//   asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
//   -> static_assert(false, "inline PTX (asm) cannot run on the emulator: ...");
// A statement in a branch the preprocessor drops (#ifdef __CUDA_ARCH__) still compiles away. An asm
// with an empty template, `asm volatile("" ::: "memory")`, holds no instruction (a compiler barrier,
// as benchmarks use in host code) and is left alone.
#pragma once

#include "rewriter/code_tokens.hpp"
#include "rewriter/source_edit.hpp"

#include <vector>

namespace gpulab::rewriter {

// in_function: function_scope_map(scope_map(tokens)). Appends one edit per asm statement.
void collect_inline_asm(const CodeTokens& tokens, const std::vector<bool>& in_function, std::vector<SourceEdit>& edits);

}  // namespace gpulab::rewriter
