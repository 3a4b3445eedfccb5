// Directives, conditional groups and the three-valued reading of their conditions (see
// pp_conditionals.hpp). The expression reader is written by hand: it is the C preprocessor's
// integer arithmetic over a handful of operators, where any name it does not know makes the
// result unknown rather than wrong.
#include "rewriter/pp_conditionals.hpp"

#include "rewriter/arch_macros.hpp"

#include <algorithm>
#include <cstdint>

namespace gpulab::rewriter {
namespace {

constexpr std::string_view kArch = "__CUDA_ARCH__";

// One lexeme of a condition: a number, a name (with `defined X` folded into one lexeme) or an operator.
struct Lexeme {
  enum Kind { number, name, defined, op, unknown } kind;
  std::string text;
  long long value = 0;
};

std::optional<long long> parse_integer(std::string_view s) {
  std::string digits;
  for (const char c : s) {
    if (c != '\'') digits += c;
  }
  while (!digits.empty() &&
         (digits.back() == 'u' || digits.back() == 'U' || digits.back() == 'l' || digits.back() == 'L')) {
    digits.pop_back();
  }
  if (digits.empty()) return std::nullopt;
  int base = 10;
  std::size_t start = 0;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
    base = 16, start = 2;
  } else if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B')) {
    base = 2, start = 2;
  } else if (digits.size() > 1 && digits[0] == '0') {
    base = 8, start = 1;
  }
  unsigned long long v = 0;
  for (std::size_t i = start; i < digits.size(); ++i) {
    const char c = digits[i];
    int d = -1;
    if (c >= '0' && c <= '9') d = c - '0';
    if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    if (d < 0 || d >= base) return std::nullopt;
    if (v > (UINT64_MAX - static_cast<unsigned>(d)) / static_cast<unsigned>(base)) return std::nullopt;
    v = v * static_cast<unsigned>(base) + static_cast<unsigned>(d);
  }
  if (v > static_cast<unsigned long long>(INT64_MAX)) return std::nullopt;
  return static_cast<long long>(v);
}

// The tokens of directive d's condition: after the directive's name.
std::vector<std::size_t> condition_tokens(const Directive& d) {
  std::vector<std::size_t> out;
  for (std::size_t i = d.hash + 2; i <= d.last; ++i) out.push_back(i);
  return out;
}

std::vector<Lexeme> lexemes_of(const CodeTokens& t, const std::vector<std::size_t>& toks) {
  static constexpr std::string_view pairs[] = {"&&", "||", "==", "!=", "<=", ">=", "<<", ">>"};
  std::vector<Lexeme> out;
  for (std::size_t k = 0; k < toks.size(); ++k) {
    const std::size_t i = toks[k];
    const std::string_view text = t.text(i);
    switch (t[i].kind) {
      case TokenKind::Number: {
        const std::optional<long long> v = parse_integer(text);
        out.push_back(v ? Lexeme{Lexeme::number, std::string(text), *v} : Lexeme{Lexeme::unknown, std::string(text)});
        break;
      }
      case TokenKind::Identifier: {
        if (text == "defined") {
          std::size_t j = k + 1;
          const bool paren = j < toks.size() && t.is_punct(toks[j], '(');
          if (paren) ++j;
          if (j >= toks.size() || !t.is_identifier(toks[j])) return {{Lexeme::unknown, "defined"}};
          out.push_back({Lexeme::defined, std::string(t.text(toks[j]))});
          if (paren) {
            if (j + 1 >= toks.size() || !t.is_punct(toks[j + 1], ')')) return {{Lexeme::unknown, "defined"}};
            ++j;
          }
          k = j;
          break;
        }
        // A function-like macro or __has_include(...): its arguments are skipped, its value unknown.
        if (k + 1 < toks.size() && t.is_punct(toks[k + 1], '(')) {
          int depth = 0;
          std::size_t j = k + 1;
          for (; j < toks.size(); ++j) {
            if (t.is_punct(toks[j], '(')) ++depth;
            if (t.is_punct(toks[j], ')') && --depth == 0) break;
          }
          k = j;
          out.push_back({Lexeme::unknown, std::string(text)});
          break;
        }
        out.push_back({Lexeme::name, std::string(text)});
        break;
      }
      case TokenKind::Punct: {
        std::string op(text);
        if (k + 1 < toks.size() && t[toks[k + 1]].kind == TokenKind::Punct && t.adjacent(i, toks[k + 1])) {
          const std::string two = op + std::string(t.text(toks[k + 1]));
          if (std::find(std::begin(pairs), std::end(pairs), two) != std::end(pairs)) {
            op = two;
            ++k;
          }
        }
        out.push_back({Lexeme::op, op});
        break;
      }
      default: out.push_back({Lexeme::unknown, std::string(text)}); break;
    }
  }
  return out;
}

using Value = std::optional<long long>;

// Precedence climbing over the C preprocessor's operators; a malformed expression is unknown.
class Evaluator {
 public:
  Evaluator(const std::vector<Lexeme>& lx, Side side, const ArchContext& ctx) : lx_(lx), side_(side), ctx_(ctx) {}

  Value run() {
    const Value v = conditional();
    if (pos_ != lx_.size() || broken_) return std::nullopt;
    return v;
  }

 private:
  bool at_op(std::string_view op) const {
    return pos_ < lx_.size() && lx_[pos_].kind == Lexeme::op && lx_[pos_].text == op;
  }

  Value conditional() {
    const Value c = binary(0);
    if (!at_op("?")) return c;
    ++pos_;
    const Value a = conditional();
    if (!at_op(":")) {
      broken_ = true;
      return std::nullopt;
    }
    ++pos_;
    const Value b = conditional();
    if (c) return *c ? a : b;
    return a && b && *a == *b ? a : std::nullopt;
  }

  static int precedence(std::string_view op) {
    static constexpr std::pair<std::string_view, int> table[] = {
        {"||", 1}, {"&&", 2}, {"|", 3},  {"^", 4},  {"&", 5}, {"==", 6}, {"!=", 6}, {"<", 7},  {">", 7},
        {"<=", 7}, {">=", 7}, {"<<", 8}, {">>", 8}, {"+", 9}, {"-", 9},  {"*", 10}, {"/", 10}, {"%", 10}};
    for (const auto& [o, p] : table) {
      if (o == op) return p;
    }
    return -1;
  }

  Value binary(int min_precedence) {
    Value lhs = unary();
    while (pos_ < lx_.size() && lx_[pos_].kind == Lexeme::op) {
      const std::string op = lx_[pos_].text;
      const int p = precedence(op);
      if (p < 0 || p < min_precedence) break;
      ++pos_;
      const Value rhs = binary(p + 1);
      lhs = apply(op, lhs, rhs);
    }
    return lhs;
  }

  static Value apply(const std::string& op, Value a, Value b) {
    if (op == "&&") {
      if ((a && !*a) || (b && !*b)) return 0;
      return a && b ? Value(1) : std::nullopt;
    }
    if (op == "||") {
      if ((a && *a) || (b && *b)) return 1;
      return a && b ? Value(0) : std::nullopt;
    }
    if (!a || !b) return std::nullopt;
    const long long x = *a, y = *b;
    if (op == "|") return x | y;
    if (op == "^") return x ^ y;
    if (op == "&") return x & y;
    if (op == "==") return x == y;
    if (op == "!=") return x != y;
    if (op == "<") return x < y;
    if (op == ">") return x > y;
    if (op == "<=") return x <= y;
    if (op == ">=") return x >= y;
    if (op == "<<") return y >= 0 && y < 63 ? Value(x << y) : std::nullopt;
    if (op == ">>") return y >= 0 && y < 63 ? Value(x >> y) : std::nullopt;
    if (op == "+") return x + y;
    if (op == "-") return x - y;
    if (op == "*") return x * y;
    if (op == "/") return y != 0 ? Value(x / y) : std::nullopt;
    if (op == "%") return y != 0 ? Value(x % y) : std::nullopt;
    return std::nullopt;
  }

  Value unary() {
    if (pos_ >= lx_.size()) {
      broken_ = true;
      return std::nullopt;
    }
    const Lexeme& l = lx_[pos_++];
    switch (l.kind) {
      case Lexeme::number: return l.value;
      case Lexeme::defined:
        if (l.text == kArch) return side_ == Side::device ? 1 : 0;
        return std::nullopt;
      case Lexeme::name:
        if (l.text == kArch) return side_ == Side::device ? ctx_.arch : 0;
        if (l.text == "true") return 1;
        if (l.text == "false") return 0;
        return std::nullopt;
      case Lexeme::unknown: return std::nullopt;
      case Lexeme::op: break;
    }
    if (l.text == "(") {
      const Value v = conditional();
      if (!at_op(")")) {
        broken_ = true;
        return std::nullopt;
      }
      ++pos_;
      return v;
    }
    const Value v = unary();
    if (!v) return std::nullopt;
    if (l.text == "!") return !*v;
    if (l.text == "~") return ~*v;
    if (l.text == "-") return -*v;
    if (l.text == "+") return *v;
    broken_ = true;
    return std::nullopt;
  }

  const std::vector<Lexeme>& lx_;
  Side side_;
  const ArchContext& ctx_;
  std::size_t pos_ = 0;
  bool broken_ = false;
};

bool is_branch(std::string_view name) {
  return name == "if" || name == "ifdef" || name == "ifndef" || name == "elif" || name == "else";
}

}  // namespace

bool ArchContext::is_arch_macro(std::string_view name) const { return macros && macros->count(std::string(name)) > 0; }

std::vector<Directive> directives_of(const CodeTokens& t) {
  std::vector<Directive> out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t.directive(i) == 0 || (i > 0 && t.directive(i - 1) == t.directive(i))) continue;
    std::size_t last = i;
    while (last + 1 < t.size() && t.directive(last + 1) == t.directive(i)) ++last;
    const std::string_view name = last > i && t.is_identifier(i + 1) ? t.text(i + 1) : std::string_view();
    out.push_back({i, last, name});
    i = last;
  }
  return out;
}

Conditionals conditionals_of(const std::vector<Directive>& directives) {
  Conditionals c;
  c.group_of.assign(directives.size(), npos);
  std::vector<std::size_t> open;  // group indices
  for (std::size_t d = 0; d < directives.size(); ++d) {
    const std::string_view name = directives[d].name;
    if (name == "if" || name == "ifdef" || name == "ifndef") {
      c.groups.push_back({{d}, npos});
      open.push_back(c.groups.size() - 1);
      c.group_of[d] = open.back();
    } else if ((name == "elif" || name == "else" || name == "elifdef" || name == "elifndef") && !open.empty()) {
      c.groups[open.back()].branches.push_back(d);
      c.group_of[d] = open.back();
    } else if (name == "endif" && !open.empty()) {
      c.groups[open.back()].endif = d;
      c.group_of[d] = open.back();
      open.pop_back();
    }
  }
  return c;
}

std::optional<bool> branch_condition(const CodeTokens& t, const Directive& d, Side side, const ArchContext& ctx) {
  if (d.name == "else") return true;
  if (d.name == "ifdef" || d.name == "ifndef") {
    if (d.hash + 2 > d.last || !t.is_identifier(d.hash + 2)) return std::nullopt;
    const std::string_view name = t.text(d.hash + 2);
    if (name != kArch) return std::nullopt;
    const bool defined = side == Side::device;
    return d.name == "ifdef" ? defined : !defined;
  }
  if (d.name != "if" && d.name != "elif") return std::nullopt;
  const std::vector<Lexeme> lx = lexemes_of(t, condition_tokens(d));
  if (lx.empty()) return std::nullopt;
  const Value v = Evaluator(lx, side, ctx).run();
  if (!v) return std::nullopt;
  return *v != 0;
}

bool condition_mentions_arch(const CodeTokens& t, const Directive& d, const ArchContext& ctx) {
  if (!is_branch(d.name)) return false;
  for (std::size_t i = d.hash + 2; i <= d.last; ++i) {
    if (t.is_identifier(i) && (t.text(i) == kArch || ctx.is_arch_macro(t.text(i)))) return true;
  }
  return false;
}

std::vector<std::size_t> possible_branches(const CodeTokens& t, const std::vector<Directive>& directives,
                                           const ConditionalGroup& group, Side side, const ArchContext& ctx) {
  std::vector<std::size_t> out;
  for (std::size_t b = 0; b < group.branches.size(); ++b) {
    const std::optional<bool> c = branch_condition(t, directives[group.branches[b]], side, ctx);
    if (c && !*c) continue;
    out.push_back(b);
    if (c && *c) return out;  // taken for certain: the later branches are not
  }
  out.push_back(group.branches.size());
  return out;
}

std::string condition_expression(const CodeTokens& t, const Directive& d, Side side, const ArchContext& ctx) {
  if (d.name == "else") return "1";
  const auto rename = [&](std::string_view name) {
    if (side == Side::device && ctx.is_arch_macro(name)) return device_macro_name(name);
    return std::string(name);
  };
  if (d.name == "ifdef" || d.name == "ifndef") {
    const std::string name = d.hash + 2 <= d.last ? std::string(t.text(d.hash + 2)) : std::string();
    const std::string defined = side == Side::device && name == kArch ? "1" : "defined(" + rename(name) + ")";
    return d.name == "ifdef" ? defined : "!" + defined;
  }
  std::string out;
  const std::vector<std::size_t> toks = condition_tokens(d);
  for (std::size_t k = 0; k < toks.size(); ++k) {
    const std::size_t i = toks[k];
    if (k > 0 && !t.adjacent(toks[k - 1], i)) out += ' ';
    if (t.is_identifier(i, "defined")) {
      // `defined X` / `defined(X)`: X renamed, `defined(__CUDA_ARCH__)` read as 1 on the device side.
      std::size_t j = k + 1;
      const bool paren = j < toks.size() && t.is_punct(toks[j], '(');
      if (paren) ++j;
      if (j < toks.size() && t.is_identifier(toks[j])) {
        const std::string_view name = t.text(toks[j]);
        out += side == Side::device && name == kArch ? "1" : "defined(" + rename(name) + ")";
        k = paren && j + 1 < toks.size() && t.is_punct(toks[j + 1], ')') ? j + 1 : j;
        continue;
      }
    }
    if (t.is_identifier(i)) {
      const std::string_view name = t.text(i);
      out += side == Side::device && name == kArch ? std::to_string(ctx.arch) : rename(name);
      continue;
    }
    out += t.text(i);
  }
  return out;
}

}  // namespace gpulab::rewriter
