// The `__noinline__` qualifier: nvcc's spelling of "never inline this function". The emulator cannot
// define it as a macro (the C++ library spells its own attribute `__attribute__((__noinline__))`),
// so each use as a qualifier, in code or in a #define, is written `__attribute__((noinline))`; the
// GNU attribute spelling inside `__attribute__((...))` is left as it is.
#pragma once

#include "rewriter/code_tokens.hpp"
#include "rewriter/source_edit.hpp"

#include <vector>

namespace gpulab::rewriter {

void collect_noinline_qualifiers(const CodeTokens& tokens, std::vector<SourceEdit>& edits);

}  // namespace gpulab::rewriter
