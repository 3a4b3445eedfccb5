// Decides, for every significant token, whether it lies inside a function body (kernels, device and
// host functions, lambdas, and every block nested in them), in a class body, or at namespace scope
// (file scope, namespace and `extern "C"` bodies, brace initialisers of namespace-scope variables).
// __shared__ declarations are rewritten differently in the two places; kernels are registered only
// where they are defined at namespace scope.
#pragma once

#include "rewriter/code_tokens.hpp"

#include <vector>

namespace gpulab::rewriter {

enum class TokenScope { Namespace, Class, Function };
// What a '{' opens: a namespace or linkage-specification body, a class body, a function body
// (lambdas and every block inside a function too) or a brace initialiser.
enum class BraceKind { Namespace, Class, Function, Init };

struct ScopeInfo {
  std::vector<TokenScope> scope;  // where each token lies, as scope_map
  std::vector<BraceKind> brace;   // for each '{' outside directives, what it opens (Init elsewhere)
};
ScopeInfo scope_info(const CodeTokens& tokens);

// Where each token lies: in a function body, else in a class body, else at namespace scope (which
// includes namespace-scope initialisers). Tokens of preprocessor directives are at namespace scope
// (their braces are ignored).
std::vector<TokenScope> scope_map(const CodeTokens& tokens);
// Element i is true when token i (scope[i]) is inside a function body.
std::vector<bool> function_scope_map(const std::vector<TokenScope>& scope);

}  // namespace gpulab::rewriter
