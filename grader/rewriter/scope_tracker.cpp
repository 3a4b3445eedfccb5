// Brace tracking for function_scope_map. Inside a function body every '{' opens more function scope.
// Elsewhere a '{' is classified from the declaration "head" before it (the tokens since the last ';'
// or body brace): namespace / linkage-specification body, class body, function body (including
// lambdas), or a brace initialiser. Misclassifying an initialiser as a function body is harmless
// (initialisers hold no declarations); the heuristics aim to never do the opposite.
#include "rewriter/scope_tracker.hpp"

#include <string_view>

namespace gpulab::rewriter {
namespace {

using Brace = BraceKind;

class HeadClassifier {
 public:
  HeadClassifier(const CodeTokens& t, std::vector<std::size_t> head) : t_(t), h_(std::move(head)) {}

  Brace classify() const {
    const std::size_t k = skip_template_headers();
    if (k >= h_.size()) return Brace::Init;
    const std::size_t n = h_.size() - k;
    if (t_.is_identifier(h_[k], "namespace") ||
        (n >= 2 && t_.is_identifier(h_[k], "inline") && t_.is_identifier(h_[k + 1], "namespace"))) {
      return Brace::Namespace;
    }
    if (n == 2 && t_.is_identifier(h_[k], "extern") && t_[h_[k + 1]].kind == TokenKind::String) {
      return Brace::Namespace;  // extern "C" { ... }
    }
    const std::size_t last = h_.back();
    if (t_.is_punct(last, ']')) return lambda_or_array(k);
    if (is_initialiser_lead(last)) return Brace::Init;
    return scan_top_level(k);
  }

 private:
  // Skips `template<...>` prefixes (their parameter lists may contain `class`).
  std::size_t skip_template_headers() const {
    std::size_t k = 0;
    while (k + 1 < h_.size() && t_.is_identifier(h_[k], "template") && t_.is_punct(h_[k + 1], '<')) {
      int angle = 0;
      int paren = 0;
      std::size_t j = k + 1;
      for (; j < h_.size(); ++j) {
        const std::size_t i = h_[j];
        if (t_.is_punct(i, '(') || t_.is_punct(i, '[') || t_.is_punct(i, '{')) ++paren;
        if (t_.is_punct(i, ')') || t_.is_punct(i, ']') || t_.is_punct(i, '}')) --paren;
        if (paren != 0) continue;
        if (t_.is_punct(i, '<')) ++angle;
        if (t_.is_punct(i, '>') && --angle == 0) break;
      }
      k = j + 1;
    }
    return k;
  }

  // `[...] {` is a lambda body unless the brackets belong to an array declarator (`int a[] {1, 2}`).
  Brace lambda_or_array(std::size_t k) const {
    int depth = 0;
    for (std::size_t j = h_.size(); j-- > k;) {
      const std::size_t i = h_[j];
      if (t_.is_punct(i, ']')) ++depth;
      if (t_.is_punct(i, '[') && --depth == 0) {
        if (j == k) return Brace::Function;
        const std::size_t p = h_[j - 1];
        const bool declarator = t_.is_name(p) || t_.is_punct(p, ']') || t_.is_punct(p, ')');
        return declarator ? Brace::Init : Brace::Function;
      }
    }
    return Brace::Init;
  }

  // `= {`, `, {`, `( {`, `return {`, ...: the brace starts an initialiser.
  bool is_initialiser_lead(std::size_t last) const {
    if (t_.is_identifier(last, "return")) return true;
    if (t_[last].kind != TokenKind::Punct) return false;
    const char c = t_.source()[t_[last].begin];
    if (c == ':') return !(t_.is_punct(last - 1, ':') && t_.adjacent(last - 1, last));
    return std::string_view("=,({[?!").find(c) != std::string_view::npos;
  }

  // An '=' that assigns/initialises (not part of ==, <=, +=, operator=, ...).
  bool is_plain_assign(std::size_t j) const {
    const std::size_t i = h_[j];
    if (!t_.is_punct(i, '=')) return false;
    constexpr std::string_view op_chars = "=!<>+-*/%&|^";
    if (j > 0) {
      const std::size_t p = h_[j - 1];
      if (t_.is_identifier(p, "operator")) return false;
      if (t_[p].kind == TokenKind::Punct && t_.adjacent(p, i) &&
          op_chars.find(t_.source()[t_[p].begin]) != std::string_view::npos) {
        return false;
      }
    }
    return !(j + 1 < h_.size() && t_.is_punct(h_[j + 1], '=') && t_.adjacent(i, h_[j + 1]));
  }

  bool ends_with_function_qualifier() const {
    const std::size_t last = h_.back();
    if (t_.is_punct(last, ')') || t_.is_punct(last, '&')) return true;
    for (std::string_view q : {"const", "volatile", "noexcept", "mutable", "override"}) {
      if (t_.is_identifier(last, q)) return true;
    }
    return false;
  }

  Brace scan_top_level(std::size_t k) const {
    int depth = 0;
    bool seen_paren = false;
    bool assign_pending = false;  // a top-level '=' not yet followed by a lambda introducer
    bool function_like = false;   // a top-level (...) group closed while no '=' was pending
    bool closed_group = false;
    bool ctor_init = false;  // `S::S(...) : member(x), ...`
    for (std::size_t j = k; j < h_.size(); ++j) {
      const std::size_t i = h_[j];
      const bool open = t_.is_punct(i, '(') || t_.is_punct(i, '[') || t_.is_punct(i, '{');
      const bool close = t_.is_punct(i, ')') || t_.is_punct(i, ']') || t_.is_punct(i, '}');
      if (depth == 0) {
        if (t_.is_punct(i, '(')) seen_paren = true;
        if (!seen_paren &&
            (t_.is_identifier(i, "class") || t_.is_identifier(i, "struct") || t_.is_identifier(i, "union") ||
             t_.is_identifier(i, "enum")) &&
            !ends_with_function_qualifier()) {
          return Brace::Class;
        }
        if (is_plain_assign(j)) assign_pending = true;
        if (t_.is_punct(i, ',')) assign_pending = false;
        if (t_.is_punct(i, '[')) {
          const bool introducer =
              j == k || !(t_.is_name(h_[j - 1]) || t_.is_punct(h_[j - 1], ')') || t_.is_punct(h_[j - 1], ']'));
          if (introducer) assign_pending = false;
        }
        if (closed_group && t_.is_punct(i, ':') &&
            !(j + 1 < h_.size() && t_.is_punct(h_[j + 1], ':') && t_.adjacent(i, h_[j + 1])) &&
            !(j > k && t_.is_punct(h_[j - 1], ':') && t_.adjacent(h_[j - 1], i))) {
          ctor_init = true;
        }
      }
      if (open) ++depth;
      if (close && --depth == 0 && t_.is_punct(i, ')')) {
        closed_group = true;
        if (!assign_pending) function_like = true;
      }
      if (depth < 0) depth = 0;
    }
    if (ctor_init) {
      const std::size_t last = h_.back();
      const bool member_init = t_.is_name(last) || (t_.is_punct(last, '>') && !t_.is_arrow_head(last));
      return member_init ? Brace::Init : Brace::Function;
    }
    return function_like ? Brace::Function : Brace::Init;
  }

  const CodeTokens& t_;
  std::vector<std::size_t> h_;
};

}  // namespace

std::vector<TokenScope> scope_map(const CodeTokens& t) { return scope_info(t).scope; }

ScopeInfo scope_info(const CodeTokens& t) {
  ScopeInfo info;
  info.scope.assign(t.size(), TokenScope::Namespace);
  info.brace.assign(t.size(), Brace::Init);
  std::vector<TokenScope>& scope = info.scope;
  std::vector<Brace> stack;
  std::size_t in_class = 0;  // Class braces on the stack
  std::size_t head = 0;      // first token of the current declaration head (namespace scope only)
  auto head_tokens = [&](std::size_t end) {
    std::vector<std::size_t> h;
    for (std::size_t j = head; j < end; ++j) {
      if (t.directive(j) == 0) h.push_back(j);
    }
    return h;
  };
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t.directive(i) != 0) continue;
    const bool function_scope = !stack.empty() && stack.back() == Brace::Function;
    scope[i] = function_scope ? TokenScope::Function : in_class ? TokenScope::Class : TokenScope::Namespace;
    if (t.is_punct(i, '{')) {
      const Brace kind = function_scope ? Brace::Function : HeadClassifier(t, head_tokens(i)).classify();
      info.brace[i] = kind;
      stack.push_back(kind);
      if (kind == Brace::Class) ++in_class;
      if (kind != Brace::Init) head = i + 1;
    } else if (t.is_punct(i, '}')) {
      if (stack.empty()) continue;  // unbalanced: leave it to the compiler
      const Brace kind = stack.back();
      stack.pop_back();
      if (kind == Brace::Class) --in_class;
      if (kind != Brace::Init) head = i + 1;
    } else if (t.is_punct(i, ';') && !function_scope) {
      if (stack.empty() || stack.back() != Brace::Init) head = i + 1;
    }
  }
  return info;
}

std::vector<bool> function_scope_map(const std::vector<TokenScope>& scope) {
  std::vector<bool> in_function(scope.size());
  for (std::size_t i = 0; i < scope.size(); ++i) in_function[i] = scope[i] == TokenScope::Function;
  return in_function;
}

}  // namespace gpulab::rewriter
