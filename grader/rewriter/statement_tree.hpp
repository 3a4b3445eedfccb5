// The statements of a function body as a tree, read from its tokens: compound statements, the
// control statements (if, for, while, do, switch) with their conditions, jumps, labels,
// declarations and expression statements. Expressions stay token ranges. What the reader cannot
// delimit for sure (an `if` with an init-statement, `try`, a conditional directive inside the body)
// is marked, so that a transformation can leave the function alone.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "rewriter/code_tokens.hpp"

namespace gpulab::rewriter {

// Tokens first..last (inclusive); empty when last < first.
struct TokenRange {
  std::size_t first = 1;
  std::size_t last = 0;
  bool empty() const { return last < first; }
};

enum class StmtKind {
  compound,          // { children... }
  expression,        // an expression (or `asm`) followed by ';'
  declaration,       // a declaration of variables (declaration_parse.hpp reads it)
  type_declaration,  // using, typedef, static_assert, a class or enum definition: no run-time effect
  if_,               // children[0] the branch taken, children[1] (if any) the else branch
  for_,              // children[0] the init-statement (declaration, expression or empty), children[1] the body
  range_for,         // children[0] the body; `cond` is everything between the parentheses
  while_,            // children[0] the body
  do_,               // children[0] the body
  switch_,           // children[0] the body
  return_,
  break_,
  continue_,
  goto_,
  label,  // `name:`, `case X:`, `default:` (the labelled statement follows as a sibling)
  empty,  // ';'
  other,  // read past but not understood
};

struct Stmt {
  StmtKind kind = StmtKind::other;
  std::size_t first = 0, last = 0;  // the whole statement, inclusive (its ';' or '}' included)
  std::size_t lead = 0;             // first token to copy with it: `#pragma` lines just before `first`
  TokenRange cond;                  // if/while/do/switch: inside the parentheses; for: the condition
  TokenRange inc;                   // for: the increment expression
  bool constexpr_if = false;
  std::vector<Stmt> children;
};

struct FunctionBody {
  Stmt body;  // a compound statement
  // The body holds a conditional directive (#if, #ifdef, #else, ...), #define or #undef: its
  // statements cannot be moved about without changing what the preprocessor keeps.
  bool has_conditional_directives = false;
  bool complete = true;  // every statement was delimited (no `other` that hides its extent)
};

// Reads the body whose '{' is token `open` (its '}' matched over directives). nullopt when the braces
// do not balance.
std::optional<FunctionBody> read_function_body(const CodeTokens& t, std::size_t open);

// The first token after `i` that is not part of a preprocessor directive (t.size() at the end).
std::size_t next_code_token(const CodeTokens& t, std::size_t i);

// The token that closes the bracket opened at `open` ('(', '[' or '{'), reading past directives.
std::optional<std::size_t> closing_bracket(const CodeTokens& t, std::size_t open);

// The ';' that ends the simple statement starting at `first` (brackets skipped), or nullopt.
std::optional<std::size_t> statement_end(const CodeTokens& t, std::size_t first, std::size_t limit);

}  // namespace gpulab::rewriter
