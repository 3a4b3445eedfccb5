// Finds `__shared__` declarations and produces the edits that turn them into emulator calls:
//   in a function body:   __shared__ T name[D];       -> auto& name = ::gpulab::emu::shared_variable<T[D]>([]{});
//                         extern __shared__ T name[]; -> T* const name = ::gpulab::emu::dynamic_shared<T>();
//   at namespace scope:   extern __shared__ T name[]; -> static ::gpulab::emu::dynamic_shared_array<T> name;
//                         __shared__ T name[D];       -> unchanged (the emulator headers define a fallback)
#pragma once

#include "rewriter/code_tokens.hpp"
#include "rewriter/source_edit.hpp"

#include <vector>

namespace gpulab::rewriter {

// in_function: function_scope_map(scope_map(tokens)). Appends one edit per rewritten declaration; throws
// RewriteError for declarations CUDA forbids or that cannot be parsed.
void collect_shared_declarations(const CodeTokens& tokens, const std::vector<bool>& in_function,
                                 std::vector<SourceEdit>& edits);

}  // namespace gpulab::rewriter
