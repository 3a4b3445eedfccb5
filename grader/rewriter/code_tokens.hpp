// The significant (non-trivia) tokens of one source file plus the small queries the rewriting passes
// share: punctuation tests, adjacency, bracket matching, whitespace-collapsed text, line-break
// extraction, string-literal escaping and error reporting with line/column.
#pragma once

#include "rewriter/cuda_lexer.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpulab::rewriter {

// Code inside `#if 0` / `#if false` blocks (up to the matching #else, #elif or #endif) is dropped here,
// like comments, so disabled code is never rewritten.
class CodeTokens {
 public:
  CodeTokens(std::string_view source, std::string_view file_name);

  std::string_view source() const { return source_; }
  std::string_view file_name() const { return file_name_; }
  std::size_t size() const { return tokens_.size(); }
  const Token& operator[](std::size_t i) const { return tokens_[i]; }
  std::string_view text(std::size_t i) const { return tokens_[i].text(source_); }
  int directive(std::size_t i) const { return tokens_[i].directive; }
  // The name of the preprocessor directive token i belongs to ("define", "error", ...); "" outside.
  std::string_view directive_name(std::size_t i) const;

  bool is_punct(std::size_t i, char c) const;
  bool is_identifier(std::size_t i) const;
  bool is_identifier(std::size_t i, std::string_view name) const;
  // An identifier that is not a C++ keyword (so it can name a variable, function, type, ...).
  bool is_name(std::size_t i) const;
  // Token b starts exactly where token a ends (no whitespace or comment between them).
  bool adjacent(std::size_t a, std::size_t b) const;
  // Tokens i and i+1 spell "::".
  bool is_scope_op(std::size_t i) const;
  // Token i is the '>' of "->".
  bool is_arrow_head(std::size_t i) const;
  // Number of adjacent copies of punctuation character c starting at token i.
  std::size_t punct_run(std::size_t i, char c) const;

  // Index of the bracket matching the '(' / '[' / '{' at open (or ')' / ']' / '}' at close), staying
  // inside the same preprocessor directive (or outside all of them). nullopt when unbalanced.
  std::optional<std::size_t> match_forward(std::size_t open) const;
  std::optional<std::size_t> match_backward(std::size_t close) const;
  // Like match_forward for a bracket outside directives, reading past the directives in between
  // (a function body with `#pragma unroll` or `#if` lines in it).
  std::optional<std::size_t> match_forward_over_directives(std::size_t open) const;

  // Texts of tokens first..last (inclusive) joined by single spaces where the source separated them.
  std::string collapsed_text(std::size_t first, std::size_t last) const;
  // Same for an arbitrary ordered list of token indices.
  std::string collapsed_text(const std::vector<std::size_t>& indices) const;

  // Replacement for source bytes [begin, end) that is dropped from the output but must keep the
  // layout: each line break ("\n" / "\r\n"; inside a preprocessor directive "\\\n" so that the directive
  // keeps going) and, after the last one, that line's text up to `end` blanked to spaces (tabs kept),
  // so the text following `end` stays on its line and column. Empty when there is no line break.
  std::string layout_of(std::size_t begin, std::size_t end, bool in_directive) const;

  // "line L, column C" of token i, for messages.
  std::string where(std::size_t i) const;
  [[noreturn]] void fail(std::size_t i, const std::string& description) const;

 private:
  std::string_view source_;
  std::string_view file_name_;
  std::vector<Token> tokens_;
};

bool is_cpp_keyword(std::string_view word);

// Escapes text for use between the quotes of a C/C++ string literal.
std::string escape_string_literal(std::string_view text);

}  // namespace gpulab::rewriter
