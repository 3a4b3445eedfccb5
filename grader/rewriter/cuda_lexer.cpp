// Hand-written lexer for CUDA/C++ source: just enough of the language's lexical rules (comments, line
// continuations, string/char/raw-string literals with prefixes, pp-numbers, directives) to tell code
// apart from text that must never be rewritten.
#include "rewriter/cuda_lexer.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace gpulab::rewriter {
namespace {

bool is_ident_start(char c) {
  const auto u = static_cast<unsigned char>(c);
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || u >= 0x80;
}

bool is_ident_char(char c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

bool is_digit(char c) { return c >= '0' && c <= '9'; }

class Lexer {
 public:
  explicit Lexer(std::string_view src) : src_(src) {}

  std::vector<Token> run() {
    while (pos_ < src_.size()) {
      const std::size_t start = pos_;
      const TokenKind kind = lex_one();
      push(kind, start);
    }
    return std::move(tokens_);
  }

 private:
  char at(std::size_t i) const { return i < src_.size() ? src_[i] : '\0'; }

  // Length of the line break starting at i ("\n" or "\r\n"), 0 if there is none.
  std::size_t line_break_at(std::size_t i) const {
    if (at(i) == '\n') return 1;
    if (at(i) == '\r' && at(i + 1) == '\n') return 2;
    return 0;
  }

  // Length of a line continuation (backslash + line break) starting at i, 0 if there is none.
  std::size_t splice_at(std::size_t i) const {
    if (at(i) != '\\') return 0;
    const std::size_t br = line_break_at(i + 1);
    return br == 0 ? 0 : 1 + br;
  }

  TokenKind lex_one() {
    const char c = src_[pos_];
    if (const std::size_t br = line_break_at(pos_)) {
      pos_ += br;
      return TokenKind::Newline;
    }
    if (const std::size_t sp = splice_at(pos_)) {
      pos_ += sp;
      return TokenKind::Splice;
    }
    if (c == ' ' || c == '\t' || c == '\f' || c == '\v' || c == '\r') {
      while (
          pos_ < src_.size() && line_break_at(pos_) == 0 &&
          (src_[pos_] == ' ' || src_[pos_] == '\t' || src_[pos_] == '\f' || src_[pos_] == '\v' || src_[pos_] == '\r')) {
        ++pos_;
      }
      return TokenKind::Whitespace;
    }
    if (c == '/' && at(pos_ + 1) == '/') {
      pos_ += 2;
      while (pos_ < src_.size() && line_break_at(pos_) == 0) {
        if (const std::size_t sp = splice_at(pos_)) {
          pos_ += sp;  // "// ... \" continues the comment on the next line
        } else {
          ++pos_;
        }
      }
      return TokenKind::Comment;
    }
    if (c == '/' && at(pos_ + 1) == '*') {
      const std::size_t close = src_.find("*/", pos_ + 2);
      pos_ = close == std::string_view::npos ? src_.size() : close + 2;
      return TokenKind::Comment;
    }
    if (is_ident_start(c)) {
      const std::size_t start = pos_;
      while (pos_ < src_.size() && is_ident_char(src_[pos_])) ++pos_;
      return after_identifier(src_.substr(start, pos_ - start));
    }
    if (is_digit(c) || (c == '.' && is_digit(at(pos_ + 1)))) {
      lex_number();
      return TokenKind::Number;
    }
    if (c == '"') {
      lex_quoted('"');
      return TokenKind::String;
    }
    if (c == '\'') {
      lex_quoted('\'');
      return TokenKind::Char;
    }
    if (c == '#' && at_line_start_) {
      directive_ = ++directive_count_;
    }
    ++pos_;
    return TokenKind::Punct;
  }

  // An identifier directly followed by a quote may be an encoding prefix (u8"..", L'x') or a raw
  // string prefix (R"d(...)d").
  TokenKind after_identifier(std::string_view ident) {
    const char next = at(pos_);
    if (next == '"') {
      static constexpr std::array<std::string_view, 5> raw{"R", "LR", "uR", "UR", "u8R"};
      for (std::string_view p : raw) {
        if (ident == p && lex_raw_string()) return TokenKind::String;
      }
    }
    if (next == '"' || next == '\'') {
      static constexpr std::array<std::string_view, 4> plain{"L", "u", "U", "u8"};
      for (std::string_view p : plain) {
        if (ident == p) {
          lex_quoted(next);
          return next == '"' ? TokenKind::String : TokenKind::Char;
        }
      }
    }
    return TokenKind::Identifier;
  }

  // pos_ is on the opening quote. Stops after the closing quote, or before the line break / end of
  // input when the literal is unterminated.
  void lex_quoted(char quote) {
    ++pos_;
    while (pos_ < src_.size()) {
      const char c = src_[pos_];
      if (c == '\\') {
        if (const std::size_t sp = splice_at(pos_)) {
          pos_ += sp;
        } else {
          pos_ = std::min(pos_ + 2, src_.size());
        }
        continue;
      }
      if (line_break_at(pos_) != 0) return;
      ++pos_;
      if (c == quote) return;
    }
  }

  // pos_ is on the '"' after the R prefix. Returns false (consuming nothing) if the delimiter is
  // malformed, in which case the caller lexes an ordinary string.
  bool lex_raw_string() {
    std::size_t p = pos_ + 1;
    while (p < src_.size() && p - pos_ - 1 <= 16 && src_[p] != '(') {
      const char c = src_[p];
      if (c == ' ' || c == ')' || c == '\\' || c == '\t' || c == '\n' || c == '\r' || c == '"') return false;
      ++p;
    }
    if (at(p) != '(') return false;
    const std::string delim = ")" + std::string(src_.substr(pos_ + 1, p - pos_ - 1)) + "\"";
    const std::size_t close = src_.find(delim, p + 1);
    pos_ = close == std::string_view::npos ? src_.size() : close + delim.size();
    return true;
  }

  void lex_number() {
    ++pos_;
    while (pos_ < src_.size()) {
      const char c = src_[pos_];
      const char prev = src_[pos_ - 1];
      if ((c == '+' || c == '-') && (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P')) {
        ++pos_;
      } else if (c == '\'' && is_ident_char(at(pos_ + 1))) {
        pos_ += 2;  // digit separator
      } else if (is_ident_char(c) || c == '.') {
        ++pos_;
      } else {
        break;
      }
    }
  }

  void push(TokenKind kind, std::size_t start) {
    const int column = static_cast<int>(start - line_start_) + 1;
    // A line break outside a comment/splice ends the current directive.
    const int directive = kind == TokenKind::Newline ? 0 : directive_;
    tokens_.push_back(Token{kind, start, pos_, line_, column, directive});
    for (std::size_t i = start; i < pos_; ++i) {
      if (src_[i] == '\n') {
        ++line_;
        line_start_ = i + 1;
      }
    }
    if (kind == TokenKind::Newline) {
      directive_ = 0;
      at_line_start_ = true;
    } else if (!is_trivia(kind)) {
      at_line_start_ = false;
    }
  }

  std::string_view src_;
  std::size_t pos_ = 0;
  int line_ = 1;
  std::size_t line_start_ = 0;
  bool at_line_start_ = true;
  int directive_ = 0;
  int directive_count_ = 0;
  std::vector<Token> tokens_;
};

}  // namespace

bool is_trivia(TokenKind kind) {
  return kind == TokenKind::Whitespace || kind == TokenKind::Newline || kind == TokenKind::Splice ||
         kind == TokenKind::Comment;
}

std::vector<Token> lex_cuda(std::string_view source) { return Lexer(source).run(); }

}  // namespace gpulab::rewriter
