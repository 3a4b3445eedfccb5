// Splits CUDA/C++ source text into tokens (whitespace, comments, literals, punctuation) so that the
// rewriter never looks inside comments, string/char literals or raw strings, and knows which tokens
// belong to a preprocessor directive. The lexer never fails: malformed input (an unterminated string,
// say) is tokenised leniently and left for the compiler to report.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace gpulab::rewriter {

enum class TokenKind {
  Whitespace,  // spaces, tabs, form feeds (never a line break)
  Newline,     // "\n" or "\r\n"
  Splice,      // backslash + line break (line continuation) outside literals
  Comment,     // "// ..." or "/* ... */" (a block comment may contain line breaks)
  Identifier,  // identifiers and keywords
  Number,      // preprocessing numbers: 42, 0x1F, 1'000, 1.5e-3f
  String,      // "...", u8"...", L"...", R"d(...)d" (with prefix)
  Char,        // 'a', L'\n'
  Punct,       // exactly one punctuation character; multi-character operators are several tokens
};

struct Token {
  TokenKind kind;
  std::size_t begin;  // byte offset of the first character
  std::size_t end;    // byte offset one past the last character
  int line;           // 1-based line of the first character
  int column;         // 1-based column (in bytes) of the first character
  int directive;      // 0 for ordinary code, n > 0 for tokens of the n-th preprocessor directive

  std::string_view text(std::string_view source) const { return source.substr(begin, end - begin); }
};

// True for tokens that carry no meaning for the rewriter (whitespace, line breaks, comments).
bool is_trivia(TokenKind kind);

// Tokenises the whole source; concatenating the texts of all tokens gives back the source exactly.
std::vector<Token> lex_cuda(std::string_view source);

}  // namespace gpulab::rewriter
