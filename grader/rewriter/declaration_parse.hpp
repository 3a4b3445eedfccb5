// Reads a simple declaration of variables from its tokens: the specifiers shared by its declarators
// (`const unsigned`, `typename Acc<T>::type`, `__shared__ float`) and each declarator with its name
// and initializer (`x = 0`, `*p(q)`, `acc[4] = {0}`, `(*tiles)[H][W] = ...`). What it does not read
// for sure (function declarations, structured bindings, bit-fields) it reports as no declaration.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "rewriter/code_tokens.hpp"
#include "rewriter/statement_tree.hpp"

namespace gpulab::rewriter {

struct Declarator {
  std::size_t name = 0;  // the declared name's token
  TokenRange tokens;     // the declarator without its initializer: `*p`, `acc[4]`, `(*t)[H]`
  enum class Init { none, copy, paren, brace } init = Init::none;
  TokenRange init_tokens;  // copy: the expression after '='; paren/brace: the whole (...) or {...}
  bool reference = false;  // `&name` or `&&name`
  bool array = false;      // a `[...]` suffix on the name
};

struct Declaration {
  TokenRange specifiers;  // the decl-specifier-seq
  std::vector<Declarator> declarators;
  bool is_static = false, is_constexpr = false, is_const = false, is_extern = false;
  bool is_shared = false;      // __shared__
  bool is_auto = false;        // the type is deduced (`auto`, `decltype(auto)`)
  bool other_storage = false;  // register, thread_local, __device__, __constant__, __managed__, mutable
};

// The declaration made by tokens first..last (the statement without its ';'), or nullopt.
std::optional<Declaration> parse_declaration(const CodeTokens& t, std::size_t first, std::size_t last);

// Whether tokens first..last look like a declaration (a type followed by a name) even if
// parse_declaration cannot read them.
bool looks_like_declaration(const CodeTokens& t, std::size_t first, std::size_t last);

// The tokens of an initializer's value: `= e` gives e, `(a)` and `{a}` give a; none gives an empty range.
TokenRange initializer_value(const Declarator& d);

// The type of declarator `d` as a type-id: the specifiers without storage-class specifiers
// (static, extern, register, constexpr, __shared__, ...) followed by the declarator without its name
// (`float (*)[H][W]`, `const unsigned`, `float[4]`). Empty for a reference declarator.
std::string declared_type(const CodeTokens& t, const Declaration& decl, const Declarator& d);

}  // namespace gpulab::rewriter
