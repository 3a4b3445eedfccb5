// Inline assembly in CUDA device code is PTX, which the host compiler would hand to the x86
// assembler. Each `asm(...)` statement (also `asm volatile`, `__asm__ __volatile__`) in a body
// declared device code (a kernel's, a `__device__` function's or lambda's), and each one elsewhere
// in a function or #define body whose text is PTX (looks_like_ptx: a function whose qualifiers
// come from a macro), becomes, on the same line, either the C++ that runs its instructions
// on the emulator (ptx_translate.hpp: special registers, shuffles, votes, bit manipulation,
// loads, fences, barriers, cp.async) or, for anything else, a static_assert that fails with a
// message naming the instruction:
//   asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
//   -> do { ...; ::gpulab::emu::ptx::put(gpulab_ptx0, ...laneid()...); ... } while (0);
//   asm("vabsdiff2.u32.u32.u32 %0, %1, %2, %3;" ...)
//   -> static_assert(false, "inline PTX instruction 'vabsdiff2.u32.u32.u32' ... is not one the emulator runs...");
// Any other asm of a host function or macro (`rdtsc`, Boost's `fldcw`) is the host's own assembly
// and is left to the host compiler, as nvcc's host pass leaves it. A statement in a branch the
// preprocessor drops still compiles away. An asm with an empty
// template, `asm volatile("" ::: "memory")`, holds no instruction (a compiler barrier, as
// benchmarks use in host code) and is left alone.
#pragma once

#include "rewriter/code_tokens.hpp"
#include "rewriter/source_edit.hpp"

#include <vector>

namespace gpulab::rewriter {

// in_function: function_scope_map(scope_map(tokens)). Appends one edit per asm statement.
void collect_inline_asm(const CodeTokens& tokens, const std::vector<bool>& in_function, std::vector<SourceEdit>& edits);

}  // namespace gpulab::rewriter
