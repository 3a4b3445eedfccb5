// Token-level reading of names, calls and lambdas (expression_scan.hpp).
#include "rewriter/expression_scan.hpp"

#include <optional>
#include <string_view>

namespace gpulab::rewriter {
namespace {

bool is_open(const CodeTokens& t, std::size_t i) {
  return t.is_punct(i, '(') || t.is_punct(i, '[') || t.is_punct(i, '{');
}

bool is_member_access_before(const CodeTokens& t, std::size_t i) {
  if (i == 0) return false;
  return t.is_punct(i - 1, '.') || t.is_arrow_head(i - 1) || (i >= 2 && t.is_scope_op(i - 2));
}

// The token after a `<...>` template argument list that starts at `open`, if it reads as one.
std::optional<std::size_t> after_template_arguments(const CodeTokens& t, std::size_t open, std::size_t last) {
  int depth = 0;
  for (std::size_t j = open; j <= last && j < open + 64; ++j) {
    if (t.is_punct(j, '(') || t.is_punct(j, '[')) {
      const std::optional<std::size_t> close = closing_bracket(t, j);
      if (!close) return std::nullopt;
      j = *close;
      continue;
    }
    if (t.is_punct(j, ';') || t.is_punct(j, '{') || t.is_punct(j, '}')) return std::nullopt;
    if (t.is_punct(j, '<')) ++depth;
    if (t.is_punct(j, '>') && !t.is_arrow_head(j) && --depth == 0) return j + 1;
  }
  return std::nullopt;
}

// The '(' of the call whose argument list holds token i as a whole argument, or 0.
std::size_t enclosing_call(const CodeTokens& t, std::size_t i, std::size_t first) {
  std::size_t j = i;
  while (j > first) {
    --j;
    if (t.is_punct(j, ')') || t.is_punct(j, ']') || t.is_punct(j, '}')) {
      const std::optional<std::size_t> open = t.match_backward(j);
      if (!open) return 0;
      j = *open;
      continue;
    }
    if (t.is_punct(j, '(')) {
      if (j == 0) return 0;
      const std::size_t callee = j - 1;
      return t.is_name(callee) || t.is_punct(callee, '>') || t.is_punct(callee, ')') || t.is_punct(callee, ']') ? j : 0;
    }
    if (t.is_punct(j, '[') || t.is_punct(j, '{') || t.is_punct(j, ';')) return 0;
  }
  return 0;
}

Occurrence classify(const CodeTokens& t, std::size_t i, TokenRange r) {
  Occurrence o{i};
  const bool prefix_increment = i >= r.first + 2 && is_increment_at(t, i - 2);
  const bool prefix_address = i > r.first && t.is_punct(i - 1, '&') && is_unary_operator(t, i - 1);
  bool arrow = false, call = false, member_call = false;
  std::size_t j = i + 1;
  o.subscripted = t.is_punct(j, '[');
  bool subscript = false;
  while (j <= r.last) {
    if (t.is_punct(j, '[')) {
      subscript = true;
      j = closing_bracket(t, j).value_or(r.last) + 1;
    } else if (t.is_punct(j, '.') && t.is_name(j + 1)) {
      member_call |= t.is_punct(j + 2, '(');
      j += 2;
    } else if (t.is_punct(j, '-') && t.is_arrow_head(j + 1) && t.is_name(j + 2)) {
      arrow = true;
      j += 3;
    } else if (t.is_punct(j, '(')) {
      call = true;
      j = closing_bracket(t, j).value_or(r.last) + 1;
    } else {
      break;
    }
  }
  const bool writes = (j <= r.last && (is_assignment_at(t, j) || is_increment_at(t, j))) || prefix_increment;
  if (prefix_address) {
    o.use = Use::address;
  } else if (writes && (arrow || call)) {
    o.use = Use::through;
  } else if (writes && subscript) {
    o.use = Use::through;
  } else if (writes) {
    o.use = prefix_increment || is_increment_at(t, j) ? Use::increment : Use::assign;
  } else if (member_call && !arrow) {
    o.use = Use::member_call;
  } else if (j == i + 1 && i > r.first && (t.is_punct(i - 1, '(') || t.is_punct(i - 1, ',')) &&
             (t.is_punct(j, ')') || t.is_punct(j, ','))) {
    o.call_open = enclosing_call(t, i, r.first);
    o.use = o.call_open ? Use::argument : Use::read;
  }
  return o;
}

}  // namespace

bool is_unary_operator(const CodeTokens& t, std::size_t i) {
  if (i == 0) return true;
  const std::size_t p = i - 1;
  if (t.is_punct(i, '&') && t.is_punct(p, '&') && t.adjacent(p, i)) return false;  // the second '&' of &&
  if (t.is_name(p) || t[p].kind == TokenKind::Number || t[p].kind == TokenKind::String ||
      t[p].kind == TokenKind::Char || t.is_punct(p, ')') || t.is_punct(p, ']')) {
    return false;
  }
  if (t.is_identifier(p)) {  // a keyword: `return *p`, `sizeof &x`; `this` is a value
    const std::string_view w = t.text(p);
    return !(w == "this" || w == "true" || w == "false" || w == "nullptr");
  }
  if (t.is_punct(p, '>') && !t.is_arrow_head(p)) return false;  // `static_cast<T*>(p)` is followed by '('
  return true;
}

bool is_assignment_at(const CodeTokens& t, std::size_t i, std::size_t* width) {
  auto adjacent_eq = [&](std::size_t k) { return t.is_punct(k, '=') && t.adjacent(k - 1, k); };
  std::size_t w = 0;
  if (t.is_punct(i, '=')) {
    if (t.is_punct(i + 1, '=') && t.adjacent(i, i + 1)) return false;  // ==
    if (i > 0 && t.adjacent(i - 1, i) && t[i - 1].kind == TokenKind::Punct) {
      const char p = t.source()[t[i - 1].begin];
      if (p == '=' || p == '!') return false;  // the end of == or !=
      if ((p == '<' || p == '>') && !(i > 1 && t.is_punct(i - 2, p) && t.adjacent(i - 2, i - 1)))
        return false;  // <= >=
    }
    w = 1;
  } else if (t[i].kind == TokenKind::Punct &&
             std::string_view("+-*/%&|^").find(t.source()[t[i].begin]) != std::string_view::npos) {
    if (!adjacent_eq(i + 1)) return false;
    if (t.is_punct(i, '-') && i > 0 && t.is_punct(i - 1, '-') && t.adjacent(i - 1, i)) return false;
    w = 2;
  } else if ((t.is_punct(i, '<') || t.is_punct(i, '>')) && t.is_punct(i + 1, t.source()[t[i].begin]) &&
             t.adjacent(i, i + 1) && adjacent_eq(i + 2)) {
    w = 3;
  } else {
    return false;
  }
  if (width) *width = w;
  return true;
}

bool is_increment_at(const CodeTokens& t, std::size_t i) {
  return (t.is_punct(i, '+') && t.is_punct(i + 1, '+') && t.adjacent(i, i + 1)) ||
         (t.is_punct(i, '-') && t.is_punct(i + 1, '-') && t.adjacent(i, i + 1));
}

std::vector<Occurrence> name_occurrences(const CodeTokens& t, TokenRange r) {
  std::vector<Occurrence> out;
  for (std::size_t i = r.first; !r.empty() && i <= r.last; ++i) {
    if (t.directive(i) != 0 || !t.is_name(i) || is_member_access_before(t, i) || t.is_scope_op(i + 1)) continue;
    out.push_back(classify(t, i, r));
  }
  return out;
}

std::vector<Call> calls(const CodeTokens& t, TokenRange r) {
  std::vector<Call> out;
  for (std::size_t i = r.first; !r.empty() && i <= r.last; ++i) {
    if (t.directive(i) != 0 || !t.is_name(i)) continue;
    std::size_t open = i + 1;
    if (t.is_punct(open, '<')) open = after_template_arguments(t, open, r.last).value_or(0);
    if (!open || !t.is_punct(open, '(')) continue;
    out.push_back(Call{i, open, i > 0 && (t.is_punct(i - 1, '.') || t.is_arrow_head(i - 1))});
  }
  return out;
}

std::vector<Lambda> lambdas(const CodeTokens& t, TokenRange r) {
  std::vector<Lambda> out;
  for (std::size_t i = r.first; !r.empty() && i <= r.last; ++i) {
    if (!t.is_punct(i, '[') || t.directive(i) != 0) continue;
    if (i > 0 && (t.is_name(i - 1) || t.is_punct(i - 1, ')') || t.is_punct(i - 1, ']') || t.is_punct(i - 1, '[') ||
                  t[i - 1].kind == TokenKind::String || t.is_identifier(i - 1, "this"))) {
      continue;  // a subscript or an attribute
    }
    const std::optional<std::size_t> close = closing_bracket(t, i);
    if (!close) continue;
    std::size_t j = *close + 1;
    if (t.is_punct(j, '(')) j = closing_bracket(t, j).value_or(j) + 1;
    while (j <= r.last && !t.is_punct(j, '{') && !t.is_punct(j, ';') && !t.is_punct(j, ')') && !t.is_punct(j, ',')) {
      if (is_open(t, j)) j = closing_bracket(t, j).value_or(j);
      ++j;
    }
    if (!t.is_punct(j, '{')) continue;
    const std::optional<std::size_t> body_close = closing_bracket(t, j);
    if (!body_close) continue;
    Lambda l{i, *close, j, *body_close};
    l.captures_nothing = *close == i + 1;
    l.captures_by_reference_only = *close == i + 2 && t.is_punct(i + 1, '&');
    out.push_back(l);
  }
  return out;
}

}  // namespace gpulab::rewriter
