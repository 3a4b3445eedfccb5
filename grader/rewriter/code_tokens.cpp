// Implementation of CodeTokens: the token-level queries shared by the launch and __shared__ passes.
#include "rewriter/code_tokens.hpp"

#include "rewriter/cuda_rewriter.hpp"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

namespace gpulab::rewriter {
namespace {

char closer_of(char open) {
  switch (open) {
    case '(': return ')';
    case '[': return ']';
    case '{': return '}';
    default: return '\0';
  }
}

char opener_of(char close) {
  switch (close) {
    case ')': return '(';
    case ']': return '[';
    case '}': return '{';
    default: return '\0';
  }
}

}  // namespace

CodeTokens::CodeTokens(std::string_view source, std::string_view file_name) : source_(source), file_name_(file_name) {
  std::vector<Token> all;
  for (const Token& t : lex_cuda(source)) {
    if (!is_trivia(t.kind)) all.push_back(t);
  }
  int disabled_depth = 0;  // > 0: inside `#if 0`, counting nested #if's
  for (std::size_t i = 0; i < all.size(); ++i) {
    const Token& t = all[i];
    const bool directive_start = t.directive != 0 && (i == 0 || all[i - 1].directive != t.directive);
    if (directive_start) {
      std::vector<std::string_view> words;  // the directive's tokens after '#'
      for (std::size_t j = i + 1; j < all.size() && all[j].directive == t.directive; ++j) {
        words.push_back(all[j].text(source));
      }
      const std::string_view name = words.empty() ? std::string_view() : words[0];
      if (disabled_depth > 0) {
        if (name == "if" || name == "ifdef" || name == "ifndef") ++disabled_depth;
        if (name == "endif") --disabled_depth;
        if (disabled_depth == 1 && (name == "else" || name == "elif")) disabled_depth = 0;
      } else if (name == "if" && words.size() == 2 && (words[1] == "0" || words[1] == "false")) {
        tokens_.push_back(t);  // keep the `#if 0` line itself, then skip the disabled block
        while (i + 1 < all.size() && all[i + 1].directive == t.directive) tokens_.push_back(all[++i]);
        disabled_depth = 1;
        continue;
      }
    }
    if (disabled_depth == 0) tokens_.push_back(t);
  }
}

std::string_view CodeTokens::directive_name(std::size_t i) const {
  const int dir = directive(i);
  if (dir == 0) return {};
  while (i > 0 && directive(i - 1) == dir) --i;
  return i + 1 < tokens_.size() && directive(i + 1) == dir ? text(i + 1) : std::string_view();
}

bool CodeTokens::is_punct(std::size_t i, char c) const {
  return i < tokens_.size() && tokens_[i].kind == TokenKind::Punct && source_[tokens_[i].begin] == c;
}

bool CodeTokens::is_identifier(std::size_t i) const {
  return i < tokens_.size() && tokens_[i].kind == TokenKind::Identifier;
}

bool CodeTokens::is_identifier(std::size_t i, std::string_view name) const {
  return is_identifier(i) && text(i) == name;
}

bool CodeTokens::is_name(std::size_t i) const { return is_identifier(i) && !is_cpp_keyword(text(i)); }

bool CodeTokens::adjacent(std::size_t a, std::size_t b) const {
  return a < tokens_.size() && b < tokens_.size() && tokens_[a].end == tokens_[b].begin;
}

bool CodeTokens::is_scope_op(std::size_t i) const {
  return is_punct(i, ':') && is_punct(i + 1, ':') && adjacent(i, i + 1);
}

bool CodeTokens::is_arrow_head(std::size_t i) const {
  return i > 0 && is_punct(i, '>') && is_punct(i - 1, '-') && adjacent(i - 1, i);
}

std::size_t CodeTokens::punct_run(std::size_t i, char c) const {
  std::size_t n = 0;
  while (is_punct(i + n, c) && (n == 0 || adjacent(i + n - 1, i + n))) ++n;
  return n;
}

std::optional<std::size_t> CodeTokens::match_forward(std::size_t open) const {
  std::string expected;  // stack of closing characters
  const int dir = directive(open);
  for (std::size_t i = open; i < tokens_.size(); ++i) {
    if (directive(i) != dir) return std::nullopt;
    if (tokens_[i].kind != TokenKind::Punct) continue;
    const char c = source_[tokens_[i].begin];
    if (const char close = closer_of(c)) {
      expected.push_back(close);
    } else if (opener_of(c) != '\0') {
      if (expected.empty() || expected.back() != c) return std::nullopt;
      expected.pop_back();
      if (expected.empty()) return i;
    }
  }
  return std::nullopt;
}

std::optional<std::size_t> CodeTokens::match_forward_over_directives(std::size_t open) const {
  std::string expected;  // stack of closing characters
  for (std::size_t i = open; i < tokens_.size(); ++i) {
    if (directive(i) != 0 || tokens_[i].kind != TokenKind::Punct) continue;
    const char c = source_[tokens_[i].begin];
    if (const char close = closer_of(c)) {
      expected.push_back(close);
    } else if (opener_of(c) != '\0') {
      if (expected.empty() || expected.back() != c) return std::nullopt;
      expected.pop_back();
      if (expected.empty()) return i;
    }
  }
  return std::nullopt;
}

std::optional<std::size_t> CodeTokens::match_backward(std::size_t close) const {
  std::string expected;  // stack of opening characters
  const int dir = directive(close);
  for (std::size_t i = close + 1; i-- > 0;) {
    if (directive(i) != dir) return std::nullopt;
    if (tokens_[i].kind != TokenKind::Punct) continue;
    const char c = source_[tokens_[i].begin];
    if (const char open = opener_of(c)) {
      expected.push_back(open);
    } else if (closer_of(c) != '\0') {
      if (expected.empty() || expected.back() != c) return std::nullopt;
      expected.pop_back();
      if (expected.empty()) return i;
    }
  }
  return std::nullopt;
}

std::string CodeTokens::collapsed_text(std::size_t first, std::size_t last) const {
  std::vector<std::size_t> indices;
  for (std::size_t i = first; i <= last; ++i) indices.push_back(i);
  return collapsed_text(indices);
}

std::string CodeTokens::collapsed_text(const std::vector<std::size_t>& indices) const {
  std::string out;
  for (std::size_t k = 0; k < indices.size(); ++k) {
    if (k > 0 && tokens_[indices[k - 1]].end != tokens_[indices[k]].begin) out += ' ';
    out += text(indices[k]);
  }
  return out;
}

std::string CodeTokens::layout_of(std::size_t begin, std::size_t end, bool in_directive) const {
  end = std::min(end, source_.size());
  std::string out;
  std::size_t line_start = std::string_view::npos;  // after the last line break seen
  for (std::size_t i = begin; i < end; ++i) {
    if (source_[i] != '\n') continue;
    if (in_directive) out += '\\';
    if (i > begin && source_[i - 1] == '\r') out += '\r';
    out += '\n';
    line_start = i + 1;
  }
  if (line_start == std::string_view::npos) return out;
  for (std::size_t i = line_start; i < end; ++i) out += source_[i] == '\t' ? '\t' : ' ';
  return out;
}

std::string CodeTokens::where(std::size_t i) const {
  return "line " + std::to_string(tokens_[i].line) + ", column " + std::to_string(tokens_[i].column);
}

void CodeTokens::fail(std::size_t i, const std::string& description) const {
  const Token& t = tokens_[std::min(i, tokens_.size() - 1)];
  throw RewriteError(file_name_, t.line, t.column, description);
}

bool is_cpp_keyword(std::string_view word) {
  static constexpr std::string_view keywords[] = {
      "alignas",     "alignof",   "and",        "and_eq",    "asm",      "auto",         "bitand",
      "bitor",       "bool",      "break",      "case",      "catch",    "char",         "char8_t",
      "char16_t",    "char32_t",  "class",      "compl",     "concept",  "const",        "consteval",
      "constexpr",   "constinit", "const_cast", "continue",  "co_await", "co_return",    "co_yield",
      "decltype",    "default",   "delete",     "do",        "double",   "dynamic_cast", "else",
      "enum",        "explicit",  "export",     "extern",    "false",    "float",        "for",
      "friend",      "goto",      "if",         "inline",    "int",      "long",         "mutable",
      "namespace",   "new",       "noexcept",   "not",       "not_eq",   "nullptr",      "operator",
      "or",          "or_eq",     "private",    "protected", "public",   "register",     "reinterpret_cast",
      "requires",    "return",    "short",      "signed",    "sizeof",   "static",       "static_assert",
      "static_cast", "struct",    "switch",     "template",  "this",     "thread_local", "throw",
      "true",        "try",       "typedef",    "typeid",    "typename", "union",        "unsigned",
      "using",       "virtual",   "void",       "volatile",  "wchar_t",  "while",        "xor",
      "xor_eq"};
  return std::find(std::begin(keywords), std::end(keywords), word) != std::end(keywords);
}

std::string escape_string_literal(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (u < 0x20 || u == 0x7f) {
          out += fmt::format("\\{:03o}", static_cast<unsigned>(u));
        } else {
          out += c;
        }
    }
  }
  return out;
}

}  // namespace gpulab::rewriter
