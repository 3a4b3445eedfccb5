// Decides, for every significant token, whether it lies inside a function body (kernels, device and
// host functions, lambdas, and every block nested in them) or at namespace scope (file scope,
// namespace and `extern "C"` bodies, class bodies, brace initialisers of namespace-scope variables).
// __shared__ declarations are rewritten differently in the two places.
#pragma once

#include "rewriter/code_tokens.hpp"

#include <vector>

namespace gpulab::rewriter {

// Element i is true when token i is inside a function body. Tokens of preprocessor directives are
// never inside one (their braces are ignored).
std::vector<bool> function_scope_map(const CodeTokens& tokens);

}  // namespace gpulab::rewriter
